package io.hcwatch.collect;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * A record as the JSON object the stream app reads for its JSON inputs (its README, PARSERS.md):
 * Avro field names, every field written (absent ones as null), {@code timestamp-millis} as ISO-8601
 * UTC text, enums by symbol, nested records as objects, arrays as arrays. One writer for every
 * record type, so a field added to a schema is in the JSON form without code here.
 */
public final class AvroJson {

    private static final JsonFactory FACTORY = new JsonFactory();

    private AvroJson() {
    }

    public static String write(IndexedRecord record) {
        StringWriter out = new StringWriter(512);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            writeRecord(g, record);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a StringWriter", e);
        }
        return out.toString();
    }

    private static void writeRecord(JsonGenerator g, IndexedRecord record) throws IOException {
        g.writeStartObject();
        for (Schema.Field field : record.getSchema().getFields()) {
            g.writeFieldName(field.name());
            writeValue(g, field.schema(), record.get(field.pos()));
        }
        g.writeEndObject();
    }

    private static void writeValue(JsonGenerator g, Schema schema, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
            return;
        }
        switch (schema.getType()) {
            case UNION -> writeValue(g, branch(schema, value), value);
            case RECORD -> writeRecord(g, (IndexedRecord) value);
            case ARRAY -> {
                g.writeStartArray();
                for (Object item : (List<?>) value) {
                    writeValue(g, schema.getElementType(), item);
                }
                g.writeEndArray();
            }
            case MAP -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                    g.writeFieldName(e.getKey().toString());
                    writeValue(g, schema.getValueType(), e.getValue());
                }
                g.writeEndObject();
            }
            case STRING, ENUM -> g.writeString(value.toString());
            case INT -> g.writeNumber((Integer) value);
            case LONG -> {
                if (value instanceof Instant instant) {
                    g.writeString(instant.toString());
                } else {
                    g.writeNumber((Long) value);
                }
            }
            case BYTES -> {
                ByteBuffer b = ((ByteBuffer) value).duplicate();
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                g.writeString(Base64.getEncoder().encodeToString(bytes));
            }
            case BOOLEAN -> g.writeBoolean((Boolean) value);
            case DOUBLE -> g.writeNumber((Double) value);
            case FLOAT -> g.writeNumber((Float) value);
            default -> throw new IllegalArgumentException("no JSON form for Avro type " + schema.getType());
        }
    }

    /** The non-null branch of a union that holds {@code value}. */
    private static Schema branch(Schema union, Object value) {
        for (Schema s : union.getTypes()) {
            if (s.getType() != Schema.Type.NULL && fits(s, value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("no branch of " + union + " holds a " + value.getClass().getSimpleName());
    }

    private static boolean fits(Schema s, Object value) {
        return switch (s.getType()) {
            case RECORD -> value instanceof IndexedRecord r && r.getSchema().getFullName().equals(s.getFullName());
            case STRING -> value instanceof CharSequence;
            case ENUM -> value instanceof Enum<?> || value instanceof org.apache.avro.generic.GenericEnumSymbol<?>;
            case INT -> value instanceof Integer;
            case LONG -> value instanceof Long || value instanceof Instant;
            case BOOLEAN -> value instanceof Boolean;
            case BYTES -> value instanceof ByteBuffer;
            case DOUBLE -> value instanceof Double;
            case FLOAT -> value instanceof Float;
            case ARRAY -> value instanceof List<?>;
            case MAP -> value instanceof Map<?, ?>;
            default -> false;
        };
    }
}
