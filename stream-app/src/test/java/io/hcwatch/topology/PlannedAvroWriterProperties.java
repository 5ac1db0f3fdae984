package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The planned writer against Avro's own, on records of every envelope kind with
 * random values drawn from the schema itself (so a field added to a schema is covered without
 * touching this test): nulls, empty and multi-byte strings, extreme numbers, empty collections.
 */
class PlannedAvroWriterProperties {

    @Property(tries = 400)
    void writesTheBytesAvrosWriterWrites(@ForAll Envelope.Kind kind, @ForAll long seed) throws IOException {
        Object record = RandomRecord.value(kind.schema, new Random(seed));
        assertThat(planned(kind.schema, record)).isEqualTo(avro(kind.schema, record));
    }

    @Example
    void refusesATypeItDoesNotPlanWhenThePlanIsBuilt() {
        assertThatThrownBy(() -> PlannedAvroWriter.of(Schema.createFixed("Four", null, "io.hcwatch", 4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FIXED");
    }

    private static byte[] planned(Schema schema, Object record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        PlannedAvroWriter.of(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static byte[] avro(Schema schema, Object record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<Object>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    /** A generated record filled with random values of the types its schema declares. */
    private static final class RandomRecord {

        private static final String[] TEXT = {"", "a", "prod-web-tg", "us-east-1a", "zoné-ü", "東京", "\uD83D\uDE00 emoji"};

        static SpecificRecord of(Schema schema, Random random) {
            try {
                SpecificRecord r = (SpecificRecord) SpecificData.get().getClass(schema).getConstructor().newInstance();
                for (Schema.Field f : schema.getFields()) {
                    r.put(f.pos(), value(f.schema(), random));
                }
                return r;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        static Object value(Schema s, Random random) {
            return switch (s.getType()) {
                case UNION -> {
                    Schema other = s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).findFirst().orElseThrow();
                    yield random.nextInt(3) == 0 ? null : value(other, random);
                }
                case RECORD -> of(s, random);
                case STRING -> TEXT[random.nextInt(TEXT.length)] + (random.nextBoolean() ? "" : random.nextInt());
                case INT -> random.nextBoolean() ? random.nextInt() : random.nextInt(200) - 100;
                case LONG -> {
                    long v = random.nextBoolean() ? random.nextLong() / 1000 : random.nextInt(2000) - 1000;
                    yield s.getLogicalType() instanceof LogicalTypes.TimestampMillis ? Instant.ofEpochMilli(v) : v;
                }
                case DOUBLE -> random.nextInt(10) == 0 ? Double.NaN : random.nextGaussian() * 1e6;
                case FLOAT -> (float) random.nextGaussian();
                case BOOLEAN -> random.nextBoolean();
                case BYTES -> {
                    byte[] b = new byte[random.nextInt(3) == 0 ? 0 : random.nextInt(300)];
                    random.nextBytes(b);
                    // a buffer read part way: both writers write what remains
                    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
                    buf.position(b.length == 0 ? 0 : random.nextInt(b.length));
                    yield buf;
                }
                case ENUM -> {
                    Object[] constants = SpecificData.get().getClass(s).getEnumConstants();
                    yield constants[random.nextInt(constants.length)];
                }
                case ARRAY -> {
                    List<Object> list = new ArrayList<>();
                    for (int i = random.nextInt(4); i > 0; i--) {
                        list.add(value(s.getElementType(), random));
                    }
                    yield list;
                }
                case MAP -> {
                    Map<String, Object> map = new HashMap<>();
                    for (int i = random.nextInt(4); i > 0; i--) {
                        map.put(TEXT[random.nextInt(TEXT.length)] + i, value(s.getValueType(), random));
                    }
                    yield map;
                }
                default -> throw new IllegalArgumentException("no random value for " + s.getType());
            };
        }
    }
}
