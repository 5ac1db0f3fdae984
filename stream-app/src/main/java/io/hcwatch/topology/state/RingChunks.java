package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parallel arrays of a ring (a step history, a frontend's seconds) stored in chunks of
 * entries, one part each ({@code <prefix><chunk>}): a step or a second writes one entry, so a
 * commit rewrites the chunk holding it, not the ring. The holder keeps the ring's length and which
 * arrays it has ({@code ring}, {@code arrays}), which change only when the ring is resized.
 */
final class RingChunks {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private RingChunks() {
    }

    static void split(ObjectNode holder, String[] arrays, int chunk, String prefix, Map<String, byte[]> parts) {
        List<String> present = new ArrayList<>();
        List<JsonNode> columns = new ArrayList<>();
        int ring = 0;
        for (String name : arrays) {
            if (holder.get(name) instanceof ArrayNode values) {
                holder.remove(name);
                present.add(name);
                columns.add(values);
                ring = Math.max(ring, values.size());
            }
        }
        if (present.isEmpty()) {
            return;
        }
        holder.put("ring", ring);
        ArrayNode names = holder.putArray("arrays");
        present.forEach(names::add);
        for (int from = 0; from < ring; from += chunk) {
            List<ObjectNode> rows = new ArrayList<>(chunk);
            for (int i = from; i < Math.min(ring, from + chunk); i++) {
                ObjectNode row = JSON.objectNode();
                for (int c = 0; c < present.size(); c++) {
                    if (columns.get(c).size() > i) {
                        row.set(present.get(c), columns.get(c).get(i));
                    }
                }
                rows.add(row);
            }
            parts.put(prefix + from / chunk, CompactRows.encode(rows, arrays));
        }
    }

    static void join(ObjectNode holder, String[] arrays, String prefix, Map<String, byte[]> parts) {
        JsonNode ringNode = holder.remove("ring");
        JsonNode names = holder.remove("arrays");
        if (ringNode == null || names == null) {
            return;
        }
        int ring = ringNode.asInt();
        List<String> present = new ArrayList<>();
        names.forEach(n -> present.add(n.asText()));
        for (String name : present) {
            holder.putArray(name);
        }
        int filled = 0;
        for (int chunk = 0; filled < ring; chunk++) {
            byte[] part = parts.get(prefix + chunk);
            List<ObjectNode> rows = part == null ? List.of() : CompactRows.decode(part, arrays);
            if (rows.isEmpty()) {
                throw new IllegalStateException("stored state lacks part '" + prefix + chunk + "' of a ring of " + ring);
            }
            for (ObjectNode row : rows) {
                for (String name : present) {
                    JsonNode v = row.get(name);
                    if (v != null) {
                        ((ArrayNode) holder.get(name)).add(v);
                    }
                }
            }
            filled += rows.size();
        }
    }
}
