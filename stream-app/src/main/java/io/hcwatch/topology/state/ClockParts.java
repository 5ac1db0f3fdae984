package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * A target group's clock ({@code c}: every commit that touches the group rewrites it) and its step
 * history's ring in chunks of {@value #HISTORY_CHUNK} entries ({@code h/N}): a step rewrites one
 * chunk, not the hour.
 */
final class ClockParts implements StateSplit {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final int HISTORY_CHUNK = 4;

    static final String[] CLOCK = {"clock", "lastStep", "lastInput", "historyNext", "historySize", "historyRing"};
    static final String[] HISTORY = {"at", "p50", "p99", "healthy", "requestRate", "known"};

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        ObjectNode clock = (ObjectNode) tree.remove("time");
        if (clock == null) {
            clock = JSON.objectNode();
        }
        if (state != null && state.get("history") instanceof ObjectNode history) {
            splitHistory(history, clock, parts);
        }
        parts.put("c", CompactRows.encode(List.of(clock), CLOCK));
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode clock = CompactRows.decode(PartMoves.require(parts, "c"), CLOCK).get(0);
        ObjectNode state = PartMoves.state(tree);
        if (state != null && state.get("history") instanceof ObjectNode history) {
            joinHistory(history, clock, parts);
        }
        tree.set("time", clock);
    }

    /** The ring's cursor goes into the clock part, which every step rewrites anyway; its arrays into chunks. */
    private static void splitHistory(ObjectNode history, ObjectNode clock, Map<String, byte[]> parts) {
        clock.set("historyNext", history.remove("next"));
        clock.set("historySize", history.remove("size"));
        RingChunks.split(history, HISTORY, HISTORY_CHUNK, "h/", parts);
        // the ring grows as steps come (4, 8, ... entries): its length beside the cursor, not in the head
        PartMoves.moveField(history, "ring", clock, "historyRing");
    }

    private static void joinHistory(ObjectNode history, ObjectNode clock, Map<String, byte[]> parts) {
        PartMoves.moveField(clock, "historyNext", history, "next");
        PartMoves.moveField(clock, "historySize", history, "size");
        PartMoves.moveField(clock, "historyRing", history, "ring");
        RingChunks.join(history, HISTORY, "h/", parts);
    }
}
