package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A target group stored in parts, so that a commit rewrites what its checks changed:
 * <ul>
 * <li>{@code c}: its clock and where its step history's ring stands (every commit that touched it);
 * <li>{@code u}: what each check moves of every target (last seen, last pass or failure, the runs
 *     of passes and failures, the last latency): rows of a few bytes, in the registry's order;
 * <li>{@code t}: the rest of each target (identity, zone, state, since when): rewritten only when
 *     one of them changes state, joins or leaves; {@code d}: the targets that left;
 * <li>{@code h/N}: the step history's ring in chunks of {@value #HISTORY_CHUNK} entries: a step
 *     rewrites one chunk, not the hour;
 * <li>{@code l/N}: slot N of the all, failing and passing latency windows: a check rewrites the
 *     live slot only;
 * <li>{@code w}, {@code s}: traffic counts and per-target served windows (access logs);
 * <li>{@code m}: the head, everything else (pool, settings, zones, alerts): seldom changes.
 * </ul>
 */
final class FleetParts implements StateSplit {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final int HISTORY_CHUNK = 4;

    private static final String[] CLOCK = {"clock", "lastStep", "lastInput", "historyNext", "historySize", "historyRing"};
    private static final String[] TARGET_MOVES = {"lastSeen", "lastPassAt", "lastFailureAt", "consecutivePasses",
            "consecutiveFailures", "lastLatencyMs"};
    private static final String[] TARGET_REST = {"key", "id", "ip", "port", "zone", "source", "firstSeen", "registeredAt",
            "state", "sawInitial", "firstHealthyAt", "lastOutcome", "firstFailureAt", "firstPassAt", "lastReason",
            "lastStatusCode", "firstLatencyMs", "unhealthySince", "departedAt"};
    private static final String[] TARGET_ALL = concat(TARGET_REST, TARGET_MOVES);
    private static final String[] HISTORY = {"at", "p50", "p99", "healthy", "requestRate", "known"};
    private static final String[] SLOTS = {"allStart", "all", "failingStart", "failing", "passingStart", "passing"};
    private static final String[] LATENCY = {"all", "failing", "passing"};
    private static final String[] SERVED_TARGET = {"target", "lastAt"};
    private static final String[] SERVED_SLOT = {"target", "start", "requests", "failed", "latency"};
    private static final String[] SERVED_ARRAYS = {"slotStart", "requests", "failed", "latency"};

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode state = (ObjectNode) tree.get("state");
        ObjectNode clock = (ObjectNode) tree.remove("time");
        if (clock == null) {
            clock = JSON.objectNode();
        }
        if (state != null && state.get("history") instanceof ObjectNode history) {
            splitHistory(history, clock, parts);
        }
        parts.put("c", CompactRows.encode(List.of(clock), CLOCK));
        if (state == null) {
            return;
        }
        if (state.get("registry") instanceof ObjectNode registry) {
            if (registry.remove("targets") instanceof ObjectNode targets && !targets.isEmpty()) {
                List<ObjectNode> rest = CompactRows.entries(targets, "key");
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
                parts.put("d", CompactRows.encode(CompactRows.entries(departed, "key"), TARGET_ALL));
            }
        }
        splitLatency(state, parts);
        moveOut(state, "traffic", "w", parts);
        if (state.get("served") instanceof ObjectNode served) {
            splitServed(served, parts);
            moveOut(state, "served", "s", parts);
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        ObjectNode clock = CompactRows.decode(require(parts, "c"), CLOCK).get(0);
        ObjectNode state = (ObjectNode) tree.get("state");
        if (state != null && state.get("history") instanceof ObjectNode history) {
            joinHistory(history, clock, parts);
        }
        tree.set("time", clock);
        if (state == null) {
            return;
        }
        if (state.get("registry") instanceof ObjectNode registry) {
            ObjectNode targets = registry.putObject("targets");
            byte[] rest = parts.get("t");
            if (rest != null) {
                List<ObjectNode> rows = CompactRows.decode(rest, TARGET_REST);
                List<ObjectNode> moves = CompactRows.decode(require(parts, "u"), TARGET_MOVES);
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
        joinLatency(state, parts);
        moveIn(state, "traffic", "w", parts);
        moveIn(state, "served", "s", parts);
        if (state.get("served") instanceof ObjectNode served) {
            joinServed(served, parts);
        }
    }

    /** The ring's cursor goes into the clock part, which every step rewrites anyway; its arrays into chunks. */
    private static void splitHistory(ObjectNode history, ObjectNode clock, Map<String, byte[]> parts) {
        clock.set("historyNext", history.remove("next"));
        clock.set("historySize", history.remove("size"));
        RingChunks.split(history, HISTORY, HISTORY_CHUNK, "h/", parts);
        // the ring grows as steps come (4, 8, ... entries): its length beside the cursor, not in the head
        moveField(history, "ring", clock, "historyRing");
    }

    private static void joinHistory(ObjectNode history, ObjectNode clock, Map<String, byte[]> parts) {
        moveField(clock, "historyNext", history, "next");
        moveField(clock, "historySize", history, "size");
        moveField(clock, "historyRing", history, "ring");
        RingChunks.join(history, HISTORY, "h/", parts);
    }

    /**
     * The latency windows' slots, one part per slot index ({@code l/N}) holding that slot of each
     * window that has anything in it: the windows share their slot length, so a check rewrites one
     * part for all of them. Each window's head keeps its slot count.
     */
    private static void splitLatency(ObjectNode state, Map<String, byte[]> parts) {
        if (!(state.get("latency") instanceof ObjectNode latency)) {
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

    private static void joinLatency(ObjectNode state, Map<String, byte[]> parts) {
        if (!(state.get("latency") instanceof ObjectNode latency)) {
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

    /**
     * The served window's slots go into one part per slot index ({@code s/N}: each target's
     * counts and sketch for that slot), so that a commit rewrites the live slot, not the minute;
     * the targets, in order, with when each last served, stay in part {@code s}. A target's slot
     * that never held anything (as a new target's) has no row.
     */
    private static void splitServed(ObjectNode served, Map<String, byte[]> parts) {
        if (!(served.remove("byTarget") instanceof ObjectNode byTarget)) {
            return;
        }
        List<ObjectNode> targets = new ArrayList<>(byTarget.size());
        List<List<ObjectNode>> slots = new ArrayList<>();
        for (ObjectNode target : CompactRows.entries(byTarget, "target")) {
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
        served.put("targets", java.util.Base64.getEncoder().encodeToString(CompactRows.encode(targets, SERVED_TARGET)));
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
        for (ObjectNode row : CompactRows.decode(java.util.Base64.getDecoder().decode(targetRows.asText()), SERVED_TARGET)) {
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

    private static void moveOut(ObjectNode state, String field, String part, Map<String, byte[]> parts) {
        JsonNode value = state.remove(field);
        if (value != null) {
            try {
                parts.put(part, MonitoredCodec.STRICT.writeValueAsBytes(value));
            } catch (IOException e) {
                throw new UncheckedIOException("could not encode monitor state", e);
            }
        }
    }

    private static void moveIn(ObjectNode state, String field, String part, Map<String, byte[]> parts) {
        byte[] bytes = parts.get(part);
        if (bytes != null) {
            try {
                state.set(field, MonitoredCodec.STRICT.readTree(bytes));
            } catch (IOException e) {
                throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
            }
        }
    }

    private static void moveField(ObjectNode from, String name, ObjectNode to, String as) {
        JsonNode v = from.remove(name);
        if (v != null) {
            to.set(as, v);
        }
    }

    private static byte[] require(Map<String, byte[]> parts, String name) {
        byte[] part = parts.get(name);
        if (part == null) {
            throw new IllegalStateException("stored target group lacks its part '" + name + "' (has " + parts.keySet() + ")");
        }
        return part;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
