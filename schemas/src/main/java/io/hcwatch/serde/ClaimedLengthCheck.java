package io.hcwatch.serde;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Walks an Avro binary value by its writer schema before it is decoded, and refuses it when a
 * string, bytes or collection claims more than the value's own bytes could hold.
 *
 * <p>Avro's decoder allocates the length a value claims before it reads the bytes (its own limits
 * default to 2^31), so a 10-byte record claiming a 2 GB string is an OutOfMemoryError, and a
 * process that restarts on OOM would read the same record again. A length can never honestly
 * exceed the bytes that are left, and the items of all collections together can never outnumber
 * the value's bytes (hcwatch's schemas have no zero-byte item types), so both are bounded by the
 * record's own size. The walk allocates nothing and reads each byte at most once.
 */
public final class ClaimedLengthCheck {

    private final byte[] data;
    private final int end;
    private int pos;
    private long itemsLeft;

    private ClaimedLengthCheck(byte[] data, int offset, int length) {
        this.data = data;
        this.pos = offset;
        this.end = offset + length;
        this.itemsLeft = length;
    }

    /**
     * Checks {@code length} bytes of {@code data} from {@code offset}, holding one value of each
     * schema in turn.
     *
     * @throws Refused naming what claimed how much, where, and how much was left
     */
    public static void check(byte[] data, int offset, int length, Schema... schemasInOrder) {
        ClaimedLengthCheck walk = new ClaimedLengthCheck(data, offset, length);
        for (Schema schema : schemasInOrder) {
            walk.value(schema);
        }
    }

    private void value(Schema schema) {
        switch (schema.getType()) {
            case NULL -> {
            }
            case BOOLEAN -> skip(1, "boolean");
            case INT, LONG, ENUM -> varLong();
            case FLOAT -> skip(4, "float");
            case DOUBLE -> skip(8, "double");
            case FIXED -> skip(schema.getFixedSize(), "fixed " + schema.getFullName());
            case STRING, BYTES -> {
                int at = pos;
                long claimed = varLong();
                if (claimed < 0 || claimed > left()) {
                    throw refused(schema.getType().getName() + " of " + claimed + " bytes", at);
                }
                pos += (int) claimed;
            }
            case UNION -> {
                int at = pos;
                long branch = varLong();
                List<Schema> types = schema.getTypes();
                if (branch < 0 || branch >= types.size()) {
                    throw new Refused("union branch " + branch + " at byte " + at + " of a union of "
                            + types.size());
                }
                value(types.get((int) branch));
            }
            case RECORD -> schema.getFields().forEach(field -> value(field.schema()));
            case ARRAY -> blocks(schema.getElementType(), null);
            case MAP -> blocks(Schema.create(Schema.Type.STRING), schema.getValueType());
        }
    }

    /** Avro's blocked encoding: counts until a zero; a negative count is followed by the block's byte size. */
    private void blocks(Schema item, Schema mapValue) {
        while (true) {
            int at = pos;
            long count = varLong();
            if (count == 0) {
                return;
            }
            if (count < 0) {
                count = -count;
                varLong();
            }
            if (count > left() || count > itemsLeft) {
                throw refused((mapValue == null ? "array" : "map") + " block of " + count + " items", at);
            }
            itemsLeft -= count;
            for (long i = 0; i < count; i++) {
                value(item);
                if (mapValue != null) {
                    value(mapValue);
                }
            }
        }
    }

    private Refused refused(String what, int at) {
        return new Refused(what + " claimed at byte " + at + ", but the value has only " + left()
                + " bytes after it (" + (end - at) + " from there)");
    }

    private void skip(int bytes, String what) {
        if (bytes > left()) {
            throw new Refused(what + " at byte " + pos + " needs " + bytes + " bytes, " + left() + " left");
        }
        pos += bytes;
    }

    /** Avro's zig-zag varint, at most 10 bytes. */
    private long varLong() {
        int at = pos;
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw new Refused("value ends inside the number that starts at byte " + at);
            }
            int b = data[pos++] & 0xff;
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new Refused("number at byte " + at + " is longer than 10 bytes");
    }

    private int left() {
        return end - pos;
    }

    /** The value is not what its schema says, or claims more than it holds; nothing was allocated for it. */
    public static final class Refused extends SerializationException {
        Refused(String message) {
            super(message);
        }
    }
}
