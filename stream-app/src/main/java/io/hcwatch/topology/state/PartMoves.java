package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** What the part families of a target group ({@link FleetParts}) share to move subtrees between its tree and its parts. */
final class PartMoves {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private PartMoves() {
    }

    /** The detector state of a key's tree, or null before it has one. */
    static ObjectNode state(ObjectNode tree) {
        return (ObjectNode) tree.get("state");
    }

    static void moveOut(ObjectNode state, String field, String part, Map<String, byte[]> parts) {
        JsonNode value = state.remove(field);
        if (value != null) {
            try {
                parts.put(part, MonitoredCodec.STRICT.writeValueAsBytes(value));
            } catch (IOException e) {
                throw new UncheckedIOException("could not encode monitor state", e);
            }
        }
    }

    static void moveIn(ObjectNode state, String field, String part, Map<String, byte[]> parts) {
        byte[] bytes = parts.get(part);
        if (bytes != null) {
            try {
                state.set(field, MonitoredCodec.STRICT.readTree(bytes));
            } catch (IOException e) {
                throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
            }
        }
    }

    static void moveField(ObjectNode from, String name, ObjectNode to, String as) {
        JsonNode v = from.remove(name);
        if (v != null) {
            to.set(as, v);
        }
    }

    /** A part every target group stored in parts has: one missing is a damaged store, refused rather than read as empty. */
    static byte[] require(Map<String, byte[]> parts, String name) {
        byte[] part = parts.get(name);
        if (part == null) {
            throw new IllegalStateException("stored target group lacks its part '" + name + "' (has " + parts.keySet() + ")");
        }
        return part;
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
