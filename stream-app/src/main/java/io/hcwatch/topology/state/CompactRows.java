package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON objects of known fields written as rows of values, without field names: what a part of a
 * key's state holds many of (a target group's targets, its step history) takes a few bytes a
 * value instead of a JSON object's tens. A row is its values' 4-bit tags, two a byte, then their
 * payloads: epoch timestamps as the difference from the timestamp before them in the part
 * (targets checked together are milliseconds apart), other integers and whole floating-point
 * values (latency quantiles are whole milliseconds) as zigzag varints, a string seen earlier in the
 * part as its index, base64 text as its bytes. Decoding gives back the same tree values, of the
 * same node types, so the state read from the tree is the state written.
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
    private static final int WHOLE_FLOAT = 11;
    private static final int WHOLE_DOUBLE = 12;
    private static final int BASE64 = 13;
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
            out.row(columns.length);
            for (int c = 0; c < columns.length; c++) {
                JsonNode value = row.get(columns[c]);
                known += value == null ? 0 : 1;
                out.value(c, value);
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
            in.row(columns.length);
            for (int c = 0; c < columns.length; c++) {
                String column = columns[c];
                JsonNode value = in.value(c);
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

        /** Where the current row's tags are. */
        private int tagsAt;

        void row(int columns) {
            tagsAt = size;
            for (int i = 0; i < (columns + 1) / 2; i++) {
                put(0);
            }
        }

        private void tag(int column, int tag) {
            buf[tagsAt + column / 2] |= (byte) (tag << (4 * (column % 2)));
        }

        void value(int column, JsonNode v) {
            if (v == null || v.isMissingNode()) {
                tag(column, ABSENT);
            } else if (v.isNull()) {
                tag(column, NULL);
            } else if (v.isBoolean()) {
                tag(column, v.booleanValue() ? TRUE : FALSE);
            } else if (v.isIntegralNumber() && v.canConvertToLong()) {
                long x = v.longValue();
                if (x >= EPOCH_MILLIS) {
                    tag(column, TIME);
                    varint(zigzag(x - lastTime));
                    lastTime = x;
                } else {
                    tag(column, INTEGER);
                    varint(zigzag(x));
                }
            } else if (v.isFloat() || v.isDouble()) {
                double d = v.doubleValue();
                long whole = (long) d;
                if (Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits((double) whole)) {
                    tag(column, v.isFloat() ? WHOLE_FLOAT : WHOLE_DOUBLE);
                    varint(zigzag(whole));
                } else if (v.isFloat()) {
                    tag(column, FLOAT);
                    fixed(Float.floatToRawIntBits(v.floatValue()), 4);
                } else {
                    tag(column, DOUBLE);
                    fixed(Double.doubleToRawLongBits(d), 8);
                }
            } else if (v.isTextual()) {
                text(column, v.textValue());
            } else {
                tag(column, TREE);
                try {
                    bytes(MonitoredCodec.STRICT.writeValueAsBytes(v));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        private void text(int column, String text) {
            Integer index = seen.get(text);
            if (index != null) {
                tag(column, SEEN_TEXT);
                varint(index);
                return;
            }
            seen.put(text, seen.size());
            byte[] raw = base64(text);
            if (raw != null) {
                tag(column, BASE64);
                bytes(raw);
            } else {
                tag(column, TEXT);
                bytes(text.getBytes(StandardCharsets.UTF_8));
            }
        }

        /** The bytes of canonical base64 text (what encoding them gives back exactly), else null. */
        private static byte[] base64(String text) {
            if (text.length() < 8 || text.length() % 4 != 0) {
                return null;
            }
            try {
                byte[] raw = Base64.getDecoder().decode(text);
                return Base64.getEncoder().encodeToString(raw).equals(text) ? raw : null;
            } catch (IllegalArgumentException e) {
                return null;
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

        private int tagsAt;

        void row(int columns) {
            tagsAt = at;
            at += (columns + 1) / 2;
        }

        JsonNode value(int column) {
            int tag = (buf[tagsAt + column / 2] >> (4 * (column % 2))) & 0xf;
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
                case WHOLE_FLOAT -> JSON.numberNode((float) unzigzag(varint()));
                case WHOLE_DOUBLE -> JSON.numberNode((double) unzigzag(varint()));
                case FLOAT -> JSON.numberNode(Float.intBitsToFloat((int) fixed(4)));
                case DOUBLE -> JSON.numberNode(Double.longBitsToDouble(fixed(8)));
                case SEEN_TEXT -> JSON.textNode(seen.get((int) varint()));
                case TEXT -> text(new String(bytes(), StandardCharsets.UTF_8));
                case BASE64 -> text(Base64.getEncoder().encodeToString(bytes()));
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

        private JsonNode text(String s) {
            seen.add(s);
            return JSON.textNode(s);
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
