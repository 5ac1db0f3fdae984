package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JSON objects of known fields written as rows of values, without field names: what a part of a
 * key's state holds many of (a target group's targets, its step history) takes a few bytes a
 * value instead of a JSON object's tens. A row is its values' 4-bit tags, two a byte, then their
 * payloads: epoch timestamps as the difference from the timestamp before them in the part
 * (targets checked together are milliseconds apart), other integers and whole floating-point
 * values (latency quantiles are whole milliseconds) as zigzag varints, a string seen earlier in the
 * part as its index, base64 text as its bytes ({@link RowWriter}, {@link RowReader}, tags in
 * {@link RowTags}). Decoding gives back the same tree values, of the same node types, so the state
 * read from the tree is the state written.
 */
final class CompactRows {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private CompactRows() {
    }

    /** {@code rows}, each holding only fields among {@code columns} (another is a layout this code does not know: refused). */
    static byte[] encode(List<ObjectNode> rows, String[] columns) {
        RowWriter out = new RowWriter();
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
        RowReader in = new RowReader(bytes);
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
        if (in.remaining() != 0) {
            throw new IllegalStateException("stored rows hold " + in.remaining() + " bytes more than their columns");
        }
        return rows;
    }
}
