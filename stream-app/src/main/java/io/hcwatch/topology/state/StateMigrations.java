package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * How state written by earlier releases becomes this release's layout, one function per kind of
 * key. Layout 0 (the first releases) kept each kind's state as one flat object with its clock
 * ({@code clock}, {@code lastStep}) and its alerts inside; layout 1 keeps time, detector state and
 * alerts apart ({@link io.hcwatch.alert.Monitored}) and splits a target group into named parts.
 * Golden files from the last layout-0 release (src/test/resources/state/v0) hold these to it.
 */
public final class StateMigrations {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private StateMigrations() {
    }

    /** A target group of layout 0. */
    public static ObjectNode fleetFromV0(ObjectNode v0) {
        ObjectNode state = JSON.objectNode();
        move(v0, state, "targetGroup", "targetGroup");
        ObjectNode pool = state.putObject("pool");
        for (String f : List.of("lb", "platform", "crossZone", "configuredTargets", "routingCount", "routingPercent",
                "dnsCount", "dnsPercent", "configKnown")) {
            move(v0, pool, f, f);
        }
        ObjectNode registry = state.putObject("registry");
        move(v0, registry, "createdAt", "createdAt");
        JsonNode targets = v0.remove("targets");
        if (targets instanceof ObjectNode t) {
            // each target's input partition: the monitor's clock keeps time per partition now
            t.elements().forEachRemaining(target -> ((ObjectNode) target).remove("upstream"));
            registry.set("targets", t);
        }
        move(v0, registry, "churn", "churn");
        ObjectNode check = state.putObject("check");
        JsonNode settings = v0.remove("check");
        if (settings != null) {
            check.set("settings", settings);
        }
        JsonNode previous = v0.remove("previousCheck");
        JsonNode changedAt = v0.remove("checkChangedAt");
        JsonNode risk = v0.remove("configRisk");
        if (previous != null && !previous.isNull() && settings != null) {
            ObjectNode change = check.putObject("lastChange");
            change.set("at", changedAt == null ? JSON.numberNode(0L) : changedAt);
            change.set("before", previous);
            change.set("after", settings.deepCopy());
            // the peak p99 the change was judged against, kept only when it was found risky
            JsonNode peak = risk == null ? null : risk.path("details").get("peak_p99_ms");
            if (peak != null && risk.path("changedAt").asLong() == change.path("at").asLong()) {
                change.put("peakP99", Double.parseDouble(peak.asText()));
            } else {
                change.put("peakP99", "NaN");
            }
        }
        ObjectNode latency = state.putObject("latency");
        move(v0, latency, "latency", "all");
        move(v0, latency, "failingLatency", "failing");
        move(v0, latency, "passingLatency", "passing");
        move(v0, latency, "timeoutsAt", "timeoutsAt");
        move(v0, state, "traffic", "traffic");
        move(v0, state, "history", "history");
        if (state.get("history") instanceof ObjectNode history && history.get("at") != null) {
            // targets known per step were not recorded before layout 1: unknown, so 0
            ArrayNode known = history.putArray("known");
            for (int i = 0; i < history.get("at").size(); i++) {
                known.add(0);
            }
        }
        ObjectNode backend = state.putObject("backend");
        move(v0, backend, "noServerAt", "noServerAt");
        move(v0, backend, "noServerMessage", "noServerMessage");
        move(v0, backend, "activeServersLeft", "activeServersLeft");
        v0.remove("upstreamClocks");
        ObjectNode out = monitored(v0, state);
        // zonal_failure's wait for a check interval is the lifecycle's now, keyed by the alert it holds back
        JsonNode zonalSince = v0.remove("zonalSince");
        String tg = state.path("targetGroup").asText();
        if (zonalSince instanceof ObjectNode since) {
            ObjectNode holding = ((ObjectNode) out.get("alerts")).putObject("holding");
            for (Iterator<Map.Entry<String, JsonNode>> it = since.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> zone = it.next();
                holding.set("zonal_failure/" + tg + "/" + zone.getKey(), zone.getValue());
            }
        }
        return finish(v0, out);
    }

    /** An HAProxy host of layout 0. */
    public static ObjectNode hostFromV0(ObjectNode v0) {
        ObjectNode state = JSON.objectNode();
        for (String f : List.of("host", "processMaxconn", "frontendMaxconn", "frontends")) {
            move(v0, state, f, f);
        }
        if (state.get("frontends") instanceof ObjectNode frontends) {
            // slot time, waiting requests and slot holders were not logged before layout 1: none, each second
            frontends.elements().forEachRemaining(f -> {
                ObjectNode frontend = (ObjectNode) f;
                int seconds = frontend.path("second").size();
                ArrayNode slotMs = frontend.putArray("slotMs");
                ArrayNode waited = frontend.putArray("waited");
                ArrayNode holders = frontend.putArray("holders");
                for (int i = 0; i < seconds; i++) {
                    slotMs.add(0);
                    waited.add(0);
                    holders.addObject();
                }
            });
        }
        return finish(v0, monitored(v0, state));
    }

    /** A client scope of layout 0. */
    public static ObjectNode floodFromV0(ObjectNode v0) {
        ObjectNode state = JSON.objectNode();
        for (String f : List.of("platform", "scope", "seconds")) {
            move(v0, state, f, f);
        }
        return finish(v0, monitored(v0, state));
    }

    /** Time and alerts taken out of a layout-0 object, around the state built from it. */
    private static ObjectNode monitored(ObjectNode v0, ObjectNode state) {
        ObjectNode out = JSON.objectNode();
        ObjectNode time = out.putObject("time");
        move(v0, time, "clock", "clock");
        move(v0, time, "lastStep", "lastStep");
        out.set("state", state);
        JsonNode alerts = v0.remove("alerts");
        out.set("alerts", alerts instanceof ObjectNode a ? a : JSON.objectNode());
        return out;
    }

    /** Everything of layout 0 must have found its place: a field left over is one this code does not know. */
    private static ObjectNode finish(ObjectNode v0, ObjectNode out) {
        if (v0.size() > 0) {
            throw new IllegalStateException("state of layout 0 holds fields this release cannot place: "
                    + String.join(", ", (Iterable<String>) v0::fieldNames));
        }
        return out;
    }

    private static void move(ObjectNode from, ObjectNode to, String name, String as) {
        JsonNode value = from.remove(name);
        if (value != null) {
            to.set(as, value);
        }
    }
}
