package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON objects of known fields written as rows of values, without field names: what a part of a
 * key's state holds many of (a target group's targets, its step history) takes a few bytes a
 * value instead of a JSON object's tens. Each value is a tag byte and its payload; epoch
 * timestamps are written as the difference from the timestamp before them in the part (targets
 * checked together are milliseconds apart), other integers as zigzag varints, a string seen earlier
 * in the part as its index. Decoding gives back the same tree values, so the state read from the
 * tree is the state written.
 */
final class CompactRows {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int ABSENT = 0;
    private static final int NULL = 1;
    private static final int FALSE = 2;
    private static final int TRUE = 3;
    private static final int INTEGER = 4;
    private static final int TIME = 5;
    private static final int FLOAT = 6;
    private static final int DOUBLE = 7;
    private static final int SEEN_TEXT = 8;
    private static final int TEXT = 9;
    private static final int TREE = 10;
    /** Integers from here up are epoch milliseconds (2001 on), written against the previous one. */
    private static final long EPOCH_MILLIS = 1_000_000_000_000L;

    private CompactRows() {
    }

    /** {@code rows}, each holding only fields among {@code columns} (another is a layout this code does not know: refused). */
    static byte[] encode(List<ObjectNode> rows, String[] columns) {
        Writer out = new Writer();
        out.varint(rows.size());
        for (ObjectNode row : rows) {
            int known = 0;
            for (String column : columns) {
                JsonNode value = row.get(column);
                known += value == null ? 0 : 1;
                out.value(value);
            }
            if (known != row.size()) {
                List<String> extra = new ArrayList<>();
                row.fieldNames().forEachRemaining(f -> {
                    if (!Arrays.asList(columns).contains(f)) {
                        extra.add(f);
                    }
                });
                throw new IllegalStateException("state field(s) " + extra + " have no column in " + Arrays.toString(columns));
            }
        }
        return out.bytes();
    }

    static List<ObjectNode> decode(byte[] bytes, String[] columns) {
        Reader in = new Reader(bytes);
        int n = (int) in.varint();
        List<ObjectNode> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ObjectNode row = JSON.objectNode();
            for (String column : columns) {
                JsonNode value = in.value();
                if (value != null) {
                    row.set(column, value);
                }
            }
            rows.add(row);
        }
        if (in.at != bytes.length) {
            throw new IllegalStateException("stored rows hold " + (bytes.length - in.at) + " bytes more than their columns");
        }
        return rows;
    }

    private static final class Writer {
        private byte[] buf = new byte[64];
        private int size;
        private long lastTime;
        private final Map<String, Integer> seen = new HashMap<>();

        void value(JsonNode v) {
            if (v == null || v.isMissingNode()) {
                put(ABSENT);
            } else if (v.isNull()) {
                put(NULL);
            } else if (v.isBoolean()) {
                put(v.booleanValue() ? TRUE : FALSE);
            } else if (v.isIntegralNumber() && v.canConvertToLong()) {
                long x = v.longValue();
                if (x >= EPOCH_MILLIS) {
                    put(TIME);
                    varint(zigzag(x - lastTime));
                    lastTime = x;
                } else {
                    put(INTEGER);
                    varint(zigzag(x));
                }
            } else if (v.isFloatingPointNumber() && !v.isBigDecimal()) {
                double d = v.doubleValue();
                if ((float) d == d || v.isFloat()) {
                    put(FLOAT);
                    fixed(Float.floatToRawIntBits((float) d), 4);
                } else {
                    put(DOUBLE);
                    fixed(Double.doubleToRawLongBits(d), 8);
                }
            } else if (v.isTextual()) {
                Integer index = seen.get(v.textValue());
                if (index != null) {
                    put(SEEN_TEXT);
                    varint(index);
                } else {
                    seen.put(v.textValue(), seen.size());
                    put(TEXT);
                    bytes(v.textValue().getBytes(StandardCharsets.UTF_8));
                }
            } else {
                put(TREE);
                try {
                    bytes(MonitoredCodec.STRICT.writeValueAsBytes(v));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        private static long zigzag(long x) {
            return (x << 1) ^ (x >> 63);
        }

        void varint(long x) {
            while ((x & ~0x7FL) != 0) {
                put((int) ((x & 0x7F) | 0x80));
                x >>>= 7;
            }
            put((int) x);
        }

        private void fixed(long bits, int n) {
            for (int i = 0; i < n; i++) {
                put((int) (bits >>> (8 * i)) & 0xff);
            }
        }

        private void bytes(byte[] b) {
            varint(b.length);
            for (byte x : b) {
                put(x);
            }
        }

        private void put(int b) {
            if (size == buf.length) {
                buf = Arrays.copyOf(buf, size * 2);
            }
            buf[size++] = (byte) b;
        }

        byte[] bytes() {
            return Arrays.copyOf(buf, size);
        }
    }

    private static final class Reader {
        private final byte[] buf;
        private int at;
        private long lastTime;
        private final List<String> seen = new ArrayList<>();

        Reader(byte[] buf) {
            this.buf = buf;
        }

        JsonNode value() {
            int tag = buf[at++];
            return switch (tag) {
                case ABSENT -> null;
                case NULL -> JSON.nullNode();
                case FALSE -> JSON.booleanNode(false);
                case TRUE -> JSON.booleanNode(true);
                case INTEGER -> number(unzigzag(varint()));
                case TIME -> {
                    lastTime += unzigzag(varint());
                    yield number(lastTime);
                }
                case FLOAT -> JSON.numberNode(Float.intBitsToFloat((int) fixed(4)));
                case DOUBLE -> JSON.numberNode(Double.longBitsToDouble(fixed(8)));
                case SEEN_TEXT -> JSON.textNode(seen.get((int) varint()));
                case TEXT -> {
                    String s = new String(bytes(), StandardCharsets.UTF_8);
                    seen.add(s);
                    yield JSON.textNode(s);
                }
                case TREE -> {
                    try {
                        yield MonitoredCodec.STRICT.readTree(bytes());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                default -> throw new IllegalStateException("stored rows hold an unknown value tag " + tag);
            };
        }

        private static JsonNode number(long x) {
            return x == (int) x ? JSON.numberNode((int) x) : JSON.numberNode(x);
        }

        private static long unzigzag(long x) {
            return (x >>> 1) ^ -(x & 1);
        }

        long varint() {
            long x = 0;
            for (int shift = 0; ; shift += 7) {
                int b = buf[at++];
                x |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return x;
                }
            }
        }

        private long fixed(int n) {
            long bits = 0;
            for (int i = 0; i < n; i++) {
                bits |= (long) (buf[at++] & 0xff) << (8 * i);
            }
            return bits;
        }

        private byte[] bytes() {
            int n = (int) varint();
            byte[] b = Arrays.copyOfRange(buf, at, at + n);
            at += n;
            return b;
        }
    }

    /** The rows of an object's fields, each with its name in column {@code keyColumn} first. */
    static List<ObjectNode> entries(ObjectNode map, String keyColumn) {
        List<ObjectNode> rows = new ArrayList<>(map.size());
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ObjectNode row = JSON.objectNode();
            row.put(keyColumn, e.getKey());
            row.setAll((ObjectNode) e.getValue());
            rows.add(row);
        }
        return rows;
    }
}
