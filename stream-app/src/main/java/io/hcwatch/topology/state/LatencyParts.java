package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A target group's latency windows' slots, one part per slot index ({@code l/N}) holding that slot
 * of each window (all, failing, passing) that has anything in it: the windows share their slot
 * length, so a check rewrites one part for all of them, the live slot's. Each window's head keeps
 * its slot count.
 */
final class LatencyParts implements StateSplit {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    static final String[] SLOTS = {"allStart", "all", "failingStart", "failing", "passingStart", "passing"};
    private static final String[] LATENCY = {"all", "failing", "passing"};

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null || !(state.get("latency") instanceof ObjectNode latency)) {
            return;
        }
        List<ObjectNode> rows = new ArrayList<>();
        for (String window : LATENCY) {
            if (!(latency.get(window) instanceof ObjectNode histogram)) {
                continue;
            }
            JsonNode starts = histogram.remove("slotStart");
            JsonNode slots = histogram.remove("slots");
            int n = starts == null ? 0 : starts.size();
            histogram.put("ring", n);
            for (int i = 0; i < n; i++) {
                JsonNode slot = slots == null ? null : slots.get(i);
                if (starts.get(i).longValue() != Long.MIN_VALUE || (slot != null && !slot.isNull())) {
                    while (rows.size() <= i) {
                        rows.add(null);
                    }
                    if (rows.get(i) == null) {
                        rows.set(i, JSON.objectNode());
                    }
                    rows.get(i).set(window + "Start", starts.get(i));
                    rows.get(i).set(window, slot);
                }
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i) != null) {
                parts.put("l/" + i, CompactRows.encode(List.of(rows.get(i)), SLOTS));
            }
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null || !(state.get("latency") instanceof ObjectNode latency)) {
            return;
        }
        for (String window : LATENCY) {
            if (!(latency.get(window) instanceof ObjectNode histogram)) {
                continue;
            }
            int n = histogram.remove("ring").asInt();
            ArrayNode starts = histogram.putArray("slotStart");
            ArrayNode slots = histogram.putArray("slots");
            for (int i = 0; i < n; i++) {
                byte[] part = parts.get("l/" + i);
                ObjectNode row = part == null ? JSON.objectNode() : CompactRows.decode(part, SLOTS).get(0);
                JsonNode start = row.get(window + "Start");
                starts.add(start == null ? JSON.numberNode(Long.MIN_VALUE) : start);
                slots.add(row.get(window) == null ? JSON.nullNode() : row.get(window));
            }
        }
    }
}
