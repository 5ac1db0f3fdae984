package io.hcwatch.input;

/**
 * What an internal envelope carries (on a repartition topic, in a pending store, held by a
 * monitor's clock): telemetry for a monitor's keys, or an upstream's progress for its clock; or,
 * from a newer release, what this one cannot read.
 */
public sealed interface Payload permits Telemetry, Progress, FromNewerRelease {

    /** Event time (epoch ms): the record's own; a batch's latest; the time a progress report vouches for. */
    long eventTime();

    /** The Avro form written on the wire: a generated record, or for a batch the list of them. */
    Object avro();

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R telemetry(Telemetry telemetry);

        R progress(Progress progress);

        R fromNewerRelease(FromNewerRelease record);
    }
}
