package io.hcwatch.input;

/**
 * An internal record a newer hcwatch wrote (a schema version or a kind this release does not know),
 * kept as the bytes it was read as: during a rolling upgrade, or after a rollback, such records
 * reach this release on repartition topics and in its stores. It is dead-lettered with those bytes
 * (reason {@code newer_version}) instead of failing where it is read, which would stop the stream
 * thread on the same record again and again.
 *
 * @param bytes the record's whole encoding, as read
 * @param why   what this release does not know, for the dead letter
 */
public record FromNewerRelease(byte[] bytes, String why) implements Payload {

    /** Not known: the record's time is in the part this release cannot read. */
    @Override
    public long eventTime() {
        return Long.MIN_VALUE;
    }

    /** None: this release has no schema for it; it is written back as the bytes it was read as. */
    @Override
    public Object avro() {
        throw new UnsupportedOperationException("a record of a newer release has no Avro form here: " + why);
    }

    @Override
    public <R> R accept(Payload.Cases<R> cases) {
        return cases.fromNewerRelease(this);
    }
}
