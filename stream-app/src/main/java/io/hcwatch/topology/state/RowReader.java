package io.hcwatch.topology.state;

import static io.hcwatch.topology.state.RowTags.ABSENT;
import static io.hcwatch.topology.state.RowTags.BASE64;
import static io.hcwatch.topology.state.RowTags.DOUBLE;
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
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Reads back what {@link RowWriter} wrote, value by value, giving the same tree values of the same
 * node types; like the writer, it reads one part.
 */
final class RowReader {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final byte[] buf;
    private int at;
    private long lastTime;
    private final List<String> seen = new ArrayList<>();
    /** Where the current row's tags are. */
    private int tagsAt;

    RowReader(byte[] buf) {
        this.buf = buf;
    }

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

    /** Bytes after what has been read: a part holding more than its rows is not one this code wrote. */
    int remaining() {
        return buf.length - at;
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
