package io.hcwatch.topology;

import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.serde.ClaimedLengthCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serde of {@link Envelope}: a zero byte, the kind, the version of its schema, the upstream, then
 * the record in Avro binary. The first releases wrote no zero byte and no version (the kind first,
 * every kind at version 1); both are read, each record with the schema it was written with,
 * resolved to this release's (Avro schema resolution). A record of a kind or version this release
 * does not know (a newer release wrote it) is read as a {@link FromNewerRelease} holding its bytes,
 * and written back as those bytes: every later release keeps the leading zero byte, the kind and
 * the version where they are. Thread-safe.
 */
public final class EnvelopeSerde implements Serde<Envelope> {

    private static final byte VERSIONED = 0;
    /** What precedes the payload: the upstream's name, empty for none. */
    private static final Schema UPSTREAM = Schema.create(Schema.Type.STRING);

    private final Map<Envelope.Kind, PlannedAvroWriter> writers = new EnumMap<>(Envelope.Kind.class);
    /** Per kind, a reader for each version written so far (index = version). */
    private final Map<Envelope.Kind, List<SpecificDatumReader<Object>>> readers = new EnumMap<>(Envelope.Kind.class);

    /**
     * Each thread's output buffer and buffered encoder, reused: writing through a fresh direct
     * encoder into a fresh stream cost more than the encoding itself (JMH: InternalRecordWriteBenchmark).
     */
    private final ThreadLocal<Buffer> buffers = ThreadLocal.withInitial(Buffer::new);

    private static final class Buffer {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder;
    }

    public EnvelopeSerde() {
        for (Envelope.Kind k : Envelope.Kind.values()) {
            writers.put(k, PlannedAvroWriter.of(k.schema));
            List<SpecificDatumReader<Object>> byVersion = new ArrayList<>();
            byVersion.add(null);
            for (int v = 1; v < k.version(); v++) {
                byVersion.add(new SpecificDatumReader<>(earlier(k, v), k.schema));
            }
            byVersion.add(new SpecificDatumReader<>(k.schema));
            readers.put(k, byVersion);
        }
    }

    public byte[] serialize(String topic, Envelope e) {
        if (e == null) {
            return null;
        }
        if (e.payload() instanceof FromNewerRelease newer) {
            return newer.bytes();
        }
        try {
            Envelope.Kind kind = e.kind();
            Buffer b = buffers.get();
            // a buffered encoder re-pointed at the stream flushes what a failed write left in it: reset after
            b.encoder = EncoderFactory.get().binaryEncoder(b.out, b.encoder);
            b.out.reset();
            b.out.write(VERSIONED);
            b.out.write(kind.tag);
            b.out.write(kind.version());
            b.encoder.writeString(e.upstream() == null ? "" : e.upstream());
            writers.get(kind).write(e.payload().avro(), b.encoder);
            b.encoder.flush();
            return b.out.toByteArray();
        } catch (IOException | RuntimeException ex) {
            throw new SerializationException("could not encode internal " + e.kind() + " record", ex);
        }
    }

    public Envelope deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        try {
            boolean versioned = data[0] == VERSIONED;
            if (versioned && data.length < 3) {
                throw new SerializationException("an internal record of " + data.length + " bytes is too short");
            }
            Envelope.Kind kind = Envelope.Kind.ofTag(versioned ? data[1] : data[0]);
            if (kind == null) {
                if (!versioned) {
                    throw new SerializationException("an internal record of unknown kind " + data[0] + " and no version");
                }
                return Envelope.of(new FromNewerRelease(data, "an internal record of kind " + data[1]
                        + ", which this hcwatch does not know, was written by a newer hcwatch"));
            }
            int version = versioned ? data[2] & 0xff : 1;
            List<SpecificDatumReader<Object>> byVersion = readers.get(kind);
            if (version >= byVersion.size()) {
                return Envelope.of(new FromNewerRelease(data, kind + " record of schema version " + version
                        + " was written by a newer hcwatch (this one reads up to version " + kind.version() + ")"));
            }
            if (version < 1) {
                throw new SerializationException(kind + " record of schema version " + version + ": no release wrote that");
            }
            int start = versioned ? 3 : 1;
            SpecificDatumReader<Object> reader = byVersion.get(version);
            ClaimedLengthCheck.check(data, start, data.length - start, UPSTREAM, reader.getSchema());
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, start, data.length - start, null);
            String upstream = decoder.readString();
            return new Envelope(kind.payloadOf(reader.read(null, decoder)), upstream.isEmpty() ? null : upstream);
        } catch (IOException | RuntimeException ex) {
            throw new SerializationException("could not decode an internal record from " + topic, ex);
        }
    }

    /** An earlier version of a kind's schema, kept in the resources. */
    private static Schema earlier(Envelope.Kind kind, int version) {
        String path = "/internal-schema-history/" + kind.schema.getName() + "/v" + version + ".avsc";
        try (java.io.InputStream in = EnvelopeSerde.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("no " + path + ": every earlier version of an internal schema must be kept");
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public Serializer<Envelope> serializer() {
        return this::serialize;
    }

    @Override
    public Deserializer<Envelope> deserializer() {
        return this::deserialize;
    }
}
