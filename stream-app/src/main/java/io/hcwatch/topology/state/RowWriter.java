package io.hcwatch.topology.state;

import static io.hcwatch.topology.state.RowTags.ABSENT;
import static io.hcwatch.topology.state.RowTags.BASE64;
import static io.hcwatch.topology.state.RowTags.DOUBLE;
import static io.hcwatch.topology.state.RowTags.EPOCH_MILLIS;
import static io.hcwatch.topology.state.RowTags.FALSE;
import static io.hcwatch.topology.state.RowTags.FLOAT;
import static io.hcwatch.topology.state.RowTags.INTEGER;
import static io.hcwatch.topology.state.RowTags.NULL;
import static io.hcwatch.topology.state.RowTags.SEEN_TEXT;
import static io.hcwatch.topology.state.RowTags.TEXT;
import static io.hcwatch.topology.state.RowTags.TIME;
import static io.hcwatch.topology.state.RowTags.TREE;
import static io.hcwatch.topology.state.RowTags.TRUE;
import static io.hcwatch.topology.state.RowTags.WHOLE_DOUBLE;
import static io.hcwatch.topology.state.RowTags.WHOLE_FLOAT;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes {@link CompactRows}' rows: each row's 4-bit value tags, two a byte, then the values'
 * payloads. The last timestamp and the strings written so far are the part's, not the row's, so a
 * writer writes one part.
 */
final class RowWriter {

    private byte[] buf;
    private int size;
    private long lastTime;
    private final Map<String, Integer> seen = new HashMap<>();

    /** Where the current row's tags are. */
    private int tagsAt;

    RowWriter() {
        buf = new byte[64];
    }

    /** A writer whose bytes start with {@code prefix} (a part's frame), so that framing them copies nothing. */
    RowWriter(byte[] prefix) {
        buf = Arrays.copyOf(prefix, prefix.length + 64);
        size = prefix.length;
    }

    void row(int columns) {
        tagsAt = size;
        for (int i = 0; i < (columns + 1) / 2; i++) {
            put(0);
        }
    }

    private void tag(int column, int tag) {
        buf[tagsAt + column / 2] |= (byte) (tag << (4 * (column % 2)));
    }

    /** A value of a tree (what {@link CompactRows} encodes). */
    void value(int column, JsonNode v) {
        if (v == null || v.isMissingNode()) {
            absent(column);
        } else if (v.isNull()) {
            nullValue(column);
        } else if (v.isBoolean()) {
            bool(column, v.booleanValue());
        } else if (v.isIntegralNumber() && v.canConvertToLong()) {
            integer(column, v.longValue());
        } else if (v.isFloat()) {
            floatValue(column, v.floatValue());
        } else if (v.isDouble()) {
            doubleValue(column, v.doubleValue());
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

    // The typed writers below are what a tree's node of that type writes: a field Jackson leaves
    // out (null) is absent, a null inside an array is a null.

    void absent(int column) {
        tag(column, ABSENT);
    }

    void nullValue(int column) {
        tag(column, NULL);
    }

    void bool(int column, boolean b) {
        tag(column, b ? TRUE : FALSE);
    }

    void integer(int column, long x) {
        if (x >= EPOCH_MILLIS) {
            tag(column, TIME);
            varint(zigzag(x - lastTime));
            lastTime = x;
        } else {
            tag(column, INTEGER);
            varint(zigzag(x));
        }
    }

    /** A boxed integer field: absent when null. */
    void integer(int column, Number x) {
        if (x == null) {
            absent(column);
        } else {
            integer(column, x.longValue());
        }
    }

    void floatValue(int column, float f) {
        long whole = (long) (double) f;
        if (Double.doubleToRawLongBits(f) == Double.doubleToRawLongBits((double) whole)) {
            tag(column, WHOLE_FLOAT);
            varint(zigzag(whole));
        } else {
            tag(column, FLOAT);
            fixed(Float.floatToRawIntBits(f), 4);
        }
    }

    void doubleValue(int column, double d) {
        long whole = (long) d;
        if (Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits((double) whole)) {
            tag(column, WHOLE_DOUBLE);
            varint(zigzag(whole));
        } else {
            tag(column, DOUBLE);
            fixed(Double.doubleToRawLongBits(d), 8);
        }
    }

    /** A string field: absent when null. */
    void optionalText(int column, String text) {
        if (text == null) {
            absent(column);
        } else {
            text(column, text);
        }
    }

    void text(int column, String text) {
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
        if (text.length() < 8 || text.length() % 4 != 0 || !inBase64Alphabet(text)) {
            return null;
        }
        try {
            byte[] raw = Base64.getDecoder().decode(text);
            return Base64.getEncoder().encodeToString(raw).equals(text) ? raw : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Whether every character could be base64's ('=' only as the last two): most texts are ids and
     * addresses ('-', '.', ':') that the decoder refuses by throwing, which cost more than writing
     * them (bench fleet's target rows). Only texts the decoder would refuse are turned away here.
     */
    private static boolean inBase64Alphabet(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            boolean letterOrDigit = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && c != '+' && c != '/' && !(c == '=' && i >= n - 2)) {
                return false;
            }
        }
        return true;
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
