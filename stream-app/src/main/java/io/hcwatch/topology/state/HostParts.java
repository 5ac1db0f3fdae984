package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * An HAProxy host stored in parts: each frontend's and each polled counter's second-by-second ring
 * in chunks ({@code f/N/C}, {@code p/N/C}, {@code q/C}: frontend, polled counter and process by
 * their order in the head), so that a commit rewrites the chunk of the live second, not minutes of
 * seconds; the head ({@code m}) keeps time, limits, alerts and each ring's length.
 */
final class HostParts implements StateSplit {

    private static final int CHUNK = 8;
    private static final String[] FRONTEND = {"second", "maxFeconn", "maxActconn", "requests", "tarpitted", "tarpitMs",
            "rejected", "status503", "slotMs", "waited", "holders"};
    private static final String[] POLLED = {"second", "current", "limit"};

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        forEachRing(tree, (holder, arrays, prefix) -> RingChunks.split(holder, arrays, CHUNK, prefix, parts));
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        forEachRing(tree, (holder, arrays, prefix) -> RingChunks.join(holder, arrays, prefix, parts));
    }

    private interface RingVisit {
        void visit(ObjectNode holder, String[] arrays, String prefix);
    }

    private static void forEachRing(ObjectNode tree, RingVisit visit) {
        if (!(tree.get("state") instanceof ObjectNode state)) {
            return;
        }
        eachValue(state.get("frontends"), "f/", FRONTEND, visit);
        eachValue(state.get("polled"), "p/", POLLED, visit);
        if (state.get("polledProcess") instanceof ObjectNode process) {
            visit.visit(process, POLLED, "q/");
        }
    }

    private static void eachValue(JsonNode map, String prefix, String[] arrays, RingVisit visit) {
        if (!(map instanceof ObjectNode byName)) {
            return;
        }
        int i = 0;
        for (Iterator<JsonNode> it = byName.elements(); it.hasNext(); i++) {
            if (it.next() instanceof ObjectNode holder) {
                visit.visit(holder, arrays, prefix + i + "/");
            }
        }
    }
}
