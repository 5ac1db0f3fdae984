package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What a target group keeps of its access logs: the traffic counts ({@code w}, JSON) and the
 * per-target served window, whose slots go into one part per slot index ({@code s/N}: each
 * target's counts and sketch for that slot), so that a commit rewrites the live slot, not the
 * minute; the targets, in order, with when each last served, stay in part {@code s}. A target's
 * slot that never held anything (as a new target's) has no row.
 */
final class TrafficParts implements StateSplit {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    static final String[] SERVED_TARGET = {"target", "lastAt"};
    static final String[] SERVED_SLOT = {"target", "start", "requests", "failed", "latency"};
    static final String[] SERVED_ARRAYS = {"slotStart", "requests", "failed", "latency"};

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null) {
            return;
        }
        PartMoves.moveOut(state, "traffic", "w", parts);
        if (state.get("served") instanceof ObjectNode served) {
            splitServed(served, parts);
            PartMoves.moveOut(state, "served", "s", parts);
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = PartMoves.state(tree);
        if (state == null) {
            return;
        }
        PartMoves.moveIn(state, "traffic", "w", parts);
        PartMoves.moveIn(state, "served", "s", parts);
        if (state.get("served") instanceof ObjectNode served) {
            joinServed(served, parts);
        }
    }

    private static void splitServed(ObjectNode served, Map<String, byte[]> parts) {
        if (!(served.remove("byTarget") instanceof ObjectNode byTarget)) {
            return;
        }
        List<ObjectNode> targets = new ArrayList<>(byTarget.size());
        List<List<ObjectNode>> slots = new ArrayList<>();
        for (ObjectNode target : PartMoves.entries(byTarget, "target")) {
            target.fieldNames().forEachRemaining(f -> {
                if (!f.equals("target") && !f.equals("lastAt") && !List.of(SERVED_ARRAYS).contains(f)) {
                    throw new IllegalStateException("served window field '" + f + "' has no place in the stored parts");
                }
            });
            JsonNode name = target.get("target");
            targets.add(JSON.objectNode().setAll(Map.of("target", name, "lastAt", target.path("lastAt"))));
            int n = target.path("slotStart").size();
            for (int i = 0; i < n; i++) {
                boolean empty = target.get("slotStart").get(i).longValue() == Long.MIN_VALUE
                        && target.get("requests").get(i).longValue() == 0 && target.get("failed").get(i).longValue() == 0
                        && (target.path("latency").get(i) == null || target.path("latency").get(i).isNull());
                while (slots.size() <= i) {
                    slots.add(new ArrayList<>());
                }
                if (!empty) {
                    ObjectNode row = JSON.objectNode();
                    row.set("target", name);
                    row.set("start", target.get("slotStart").get(i));
                    row.set("requests", target.get("requests").get(i));
                    row.set("failed", target.get("failed").get(i));
                    row.set("latency", target.path("latency").get(i));
                    slots.get(i).add(row);
                }
            }
        }
        served.put("ring", slots.size());
        served.put("targets", Base64.getEncoder().encodeToString(CompactRows.encode(targets, SERVED_TARGET)));
        for (int i = 0; i < slots.size(); i++) {
            if (!slots.get(i).isEmpty()) {
                parts.put("s/" + i, CompactRows.encode(slots.get(i), SERVED_SLOT));
            }
        }
    }

    private static void joinServed(ObjectNode served, Map<String, byte[]> parts) {
        JsonNode targetRows = served.remove("targets");
        JsonNode ringNode = served.remove("ring");
        if (targetRows == null || ringNode == null) {
            return;
        }
        int ring = ringNode.asInt();
        ObjectNode byTarget = served.putObject("byTarget");
        for (ObjectNode row : CompactRows.decode(Base64.getDecoder().decode(targetRows.asText()), SERVED_TARGET)) {
            ObjectNode target = byTarget.putObject(row.get("target").asText());
            for (String array : SERVED_ARRAYS) {
                target.putArray(array);
            }
            for (int i = 0; i < ring; i++) {
                ((ArrayNode) target.get("slotStart")).add(Long.MIN_VALUE);
                ((ArrayNode) target.get("requests")).add(0);
                ((ArrayNode) target.get("failed")).add(0);
                ((ArrayNode) target.get("latency")).addNull();
            }
            target.set("lastAt", row.get("lastAt"));
        }
        for (int i = 0; i < ring; i++) {
            byte[] part = parts.get("s/" + i);
            if (part == null) {
                continue;
            }
            for (ObjectNode row : CompactRows.decode(part, SERVED_SLOT)) {
                ObjectNode target = (ObjectNode) byTarget.get(row.get("target").asText());
                ((ArrayNode) target.get("slotStart")).set(i, row.get("start"));
                ((ArrayNode) target.get("requests")).set(i, row.get("requests"));
                ((ArrayNode) target.get("failed")).set(i, row.get("failed"));
                ((ArrayNode) target.get("latency")).set(i, row.get("latency") == null ? JSON.nullNode() : row.get("latency"));
            }
        }
    }
}
