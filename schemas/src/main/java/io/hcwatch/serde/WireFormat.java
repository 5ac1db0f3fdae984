package io.hcwatch.serde;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Confluent's wire format: magic byte 0, the schema id as a 4-byte big-endian int, then the
 * Avro binary encoding of the value.
 */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /** Whether {@code data} starts like a wire-format value (so JSON and raw text can be told apart). */
    public static boolean looksFramed(byte[] data) {
        return data != null && data.length >= HEADER_SIZE && data[0] == MAGIC_BYTE;
    }

    public static void writeHeader(ByteBuffer buffer, int schemaId) {
        buffer.put(MAGIC_BYTE).putInt(schemaId);
    }

    /** The schema id in the header; throws if {@code data} is not a wire-format value. */
    public static int schemaId(byte[] data) {
        if (data == null || data.length < HEADER_SIZE) {
            throw new SerializationException("not Confluent wire format: "
                    + (data == null ? "null" : data.length + " bytes") + ", need at least " + HEADER_SIZE);
        }
        if (data[0] != MAGIC_BYTE) {
            throw new SerializationException("not Confluent wire format: magic byte is " + data[0] + ", expected 0");
        }
        return ByteBuffer.wrap(data, 1, 4).getInt();
    }

    /** The subject of a topic's key or value under TopicNameStrategy. */
    public static String subject(String topic, boolean isKey) {
        return topic + (isKey ? "-key" : "-value");
    }
}
