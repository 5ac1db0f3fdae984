package io.hcwatch.topology;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Serde of {@link Envelope}: one kind byte, then the record in Avro binary. Thread-safe. */
public final class EnvelopeSerde implements Serde<Envelope> {

    private final Map<Envelope.Kind, PlannedAvroWriter> writers = new EnumMap<>(Envelope.Kind.class);
    private final Map<Envelope.Kind, SpecificDatumReader<Object>> readers = new EnumMap<>(Envelope.Kind.class);

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
            readers.put(k, new SpecificDatumReader<>(k.schema));
        }
    }

    public byte[] serialize(String topic, Envelope e) {
        if (e == null) {
            return null;
        }
        try {
            Buffer b = buffers.get();
            // a buffered encoder re-pointed at the stream flushes what a failed write left in it: reset after
            b.encoder = EncoderFactory.get().binaryEncoder(b.out, b.encoder);
            b.out.reset();
            b.out.write(e.kind().tag);
            b.encoder.writeString(e.upstream() == null ? "" : e.upstream());
            writers.get(e.kind()).write(e.record(), b.encoder);
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
            Envelope.Kind kind = Envelope.Kind.ofTag(data[0]);
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(data, 1, data.length - 1, null);
            String upstream = decoder.readString();
            return new Envelope(kind, readers.get(kind).read(null, decoder), upstream.isEmpty() ? null : upstream);
        } catch (IOException | RuntimeException ex) {
            throw new SerializationException("could not decode an internal record from " + topic, ex);
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
