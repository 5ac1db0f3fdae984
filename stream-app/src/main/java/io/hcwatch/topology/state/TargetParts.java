package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A target group's targets, cut by how often a field changes: {@code u}, what each check moves of
 * every target (last seen, last pass or failure, the runs of passes and failures, the last
 * latency), rows of a few bytes in the registry's order; {@code t}, the rest of each target
 * (identity, zone, state, since when), rewritten only when one of them changes state, joins or
 * leaves; {@code d}, the targets that left.
 */
final class TargetParts implements StateSplit {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    static final String[] TARGET_MOVES = {"lastSeen", "lastPassAt", "lastFailureAt", "consecutivePasses",
            "consecutiveFailures", "lastLatencyMs"};
    static final String[] TARGET_REST = {"key", "id", "ip", "port", "zone", "source", "firstSeen", "registeredAt",
            "state", "sawInitial", "firstHealthyAt", "lastOutcome", "firstFailureAt", "firstPassAt", "lastReason",
            "lastStatusCode", "firstLatencyMs", "unhealthySince", "departedAt"};
    static final String[] TARGET_ALL = concat(TARGET_REST, TARGET_MOVES);

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null || !(state.get("registry") instanceof ObjectNode registry)) {
            return;
        }
        if (registry.remove("targets") instanceof ObjectNode targets && !targets.isEmpty()) {
            List<ObjectNode> rest = PartMoves.entries(targets, "key");
            List<ObjectNode> moves = new ArrayList<>(rest.size());
            for (ObjectNode target : rest) {
                ObjectNode moved = JSON.objectNode();
                for (String f : TARGET_MOVES) {
                    JsonNode v = target.remove(f);
                    if (v != null) {
                        moved.set(f, v);
                    }
                }
                moves.add(moved);
            }
            parts.put("t", CompactRows.encode(rest, TARGET_REST));
            parts.put("u", CompactRows.encode(moves, TARGET_MOVES));
        }
        if (registry.remove("departed") instanceof ObjectNode departed && !departed.isEmpty()) {
            parts.put("d", CompactRows.encode(PartMoves.entries(departed, "key"), TARGET_ALL));
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null || !(state.get("registry") instanceof ObjectNode registry)) {
            return;
        }
        ObjectNode targets = registry.putObject("targets");
        byte[] rest = parts.get("t");
        if (rest != null) {
            List<ObjectNode> rows = CompactRows.decode(rest, TARGET_REST);
            List<ObjectNode> moves = CompactRows.decode(PartMoves.require(parts, "u"), TARGET_MOVES);
            if (moves.size() != rows.size()) {
                throw new IllegalStateException("stored target group has " + rows.size() + " targets but " + moves.size()
                        + " targets' moves");
            }
            for (int i = 0; i < rows.size(); i++) {
                ObjectNode target = rows.get(i);
                target.setAll(moves.get(i));
                targets.set(target.remove("key").asText(), target);
            }
        }
        ObjectNode departed = registry.putObject("departed");
        byte[] left = parts.get("d");
        if (left != null) {
            for (ObjectNode target : CompactRows.decode(left, TARGET_ALL)) {
                departed.set(target.remove("key").asText(), target);
            }
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
