package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A client scope stored in parts: each second of its window ({@code s/<start>}), written once
 * when it is complete enough to stop changing, and the head ({@code m}: time, alerts, the seconds'
 * order). A commit used to rewrite the whole window, a minute of client sketches, every second.
 */
final class FloodParts implements StateSplit {

    @Override
    public void split(ObjectNode tree, Map<String, byte[]> parts) {
        if (!(tree.path("state").get("seconds") instanceof ArrayNode seconds)) {
            return;
        }
        ArrayNode names = ((ObjectNode) tree.get("state")).putArray("seconds");
        for (JsonNode second : seconds) {
            String name = secondPart(second.path("start").asLong(), parts);
            names.add(name);
            try {
                parts.put(name, MonitoredCodec.STRICT.writeValueAsBytes(second));
            } catch (IOException e) {
                throw new UncheckedIOException("could not encode monitor state", e);
            }
        }
    }

    @Override
    public void join(ObjectNode tree, Map<String, byte[]> parts) {
        if (!(tree.path("state").get("seconds") instanceof ArrayNode names)) {
            return;
        }
        ArrayNode seconds = ((ObjectNode) tree.get("state")).putArray("seconds");
        for (JsonNode name : names) {
            byte[] part = parts.get(name.asText());
            if (part == null) {
                throw new IllegalStateException("stored client scope lacks its part '" + name.asText() + "'");
            }
            try {
                seconds.add(MonitoredCodec.STRICT.readTree(part));
            } catch (IOException e) {
                throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
            }
        }
    }

    /** The part of the second starting at {@code start}: {@code s/<start>}, suffixed {@code .N} past the names already {@code taken}. */
    static String secondPart(long start, Map<String, byte[]> taken) {
        String name = "s/" + start;
        for (int n = 1; taken.containsKey(name); n++) {
            name = "s/" + start + "." + n;
        }
        return name;
    }
}
