package io.hcwatch.sink.notify.pagerduty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.sink.notify.Page;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a page (an incident's or an alert's) into a PagerDuty Events API v2 request body, within the limits PagerDuty documents
 * (developer docs, "Send an Alert Event" and "Events API v2 Overview"): {@code dedup_key} at most
 * 255 characters, {@code payload.summary} at most 1024 characters, the whole event at most 512 KB.
 * An alert that would break a limit is shortened rather than refused: a page that arrives trimmed
 * beats one that is rejected with a 400.
 */
public final class PagerDutyEventEncoder {

    public static final int MAX_DEDUP_KEY_CHARS = 255;
    public static final int MAX_SUMMARY_CHARS = 1024;
    /** 512 KB read as 512,000 bytes, the stricter reading (alertmanager uses the same number). */
    public static final int MAX_EVENT_BYTES = 512_000;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String ELLIPSIS = "…";
    private static final String HASH_MARK = "~sha256:";

    private final String client;

    /** @param client shown by PagerDuty as the monitoring tool that sent the event */
    public PagerDutyEventEncoder(String client) {
        this.client = client;
    }

    public byte[] encode(Page page, RoutingKey key) {
        ObjectNode event = MAPPER.createObjectNode();
        event.put("routing_key", key.reveal());
        event.put("dedup_key", dedupKey(page.dedupKey()));
        if (page.resolves()) {
            // PagerDuty reads nothing else from a resolve; sending more only risks a 400.
            event.put("event_action", "resolve");
            return bytes(event);
        }
        event.put("event_action", "trigger");
        event.put("client", client);
        ObjectNode payload = event.putObject("payload");
        payload.put("severity", page.severity().name());
        return page.accept(new Page.Cases<>() {
            @Override
            public byte[] alert(Alert alert) {
                return trigger(event, payload, alert);
            }

            @Override
            public byte[] incident(Incident incident) {
                return trigger(event, payload, incident);
            }
        });
    }

    /**
     * An incident's opening or update: the same dedup_key each time, so PagerDuty keeps one incident
     * and updates it. The headline is the summary; the timeline and evidence are in custom_details,
     * which PagerDuty shows with the incident.
     */
    private static byte[] trigger(ObjectNode event, ObjectNode payload, Incident incident) {
        payload.put("summary", truncate(incident.getSummary(), MAX_SUMMARY_CHARS));
        payload.put("source", incident.getScopeName());
        payload.put("timestamp", incident.getEventTime().toString());
        payload.put("component", incident.getScopeName());
        putIfPresent(payload, "group", incident.getEvidence().get("zones"));
        payload.put("class", incident.getHeadlineType());
        ObjectNode details = payload.putObject("custom_details");
        details.put("incident_id", incident.getIncidentId());
        details.put("change", incident.getChange().name());
        details.put("reason", incident.getReason());
        details.put("updates", incident.getUpdates());
        details.put("opened_at", incident.getOpenedAt().toString());
        details.put("headline", incident.getHeadlineKey());
        ObjectNode evidence = details.putObject("evidence");
        new TreeMap<>(incident.getEvidence()).forEach(evidence::put);
        ArrayNode members = details.putArray("members");
        for (IncidentMember m : incident.getMembers()) {
            members.addObject()
                    .put("dedup_key", m.getDedupKey())
                    .put("role", m.getRole())
                    .put("severity", m.getSeverity())
                    .put("first_fired", m.getFirstFired().toString())
                    .put("resolved", m.getResolved() == null ? null : m.getResolved().toString())
                    .put("episodes", m.getEpisodes())
                    .put("summary", m.getSummary());
        }
        runbook(event, incident.getRunbookUrl(), incident.getHeadlineType());
        byte[] encoded = bytes(event);
        if (encoded.length <= MAX_EVENT_BYTES) {
            return encoded;
        }
        // the member summaries are what grows; the timeline without them still fits
        members.forEach(m -> ((ObjectNode) m).remove("summary"));
        return bytes(event);
    }

    private static byte[] trigger(ObjectNode event, ObjectNode payload, Alert alert) {
        payload.put("summary", truncate(alert.getSummary(), MAX_SUMMARY_CHARS));
        payload.put("source", source(alert.getScope()));
        payload.put("timestamp", alert.getEventTime().toString());
        AlertScope scope = alert.getScope();
        putIfPresent(payload, "component", scope == null ? null : firstNonNull(scope.getTargetGroup(), scope.getFrontend()));
        putIfPresent(payload, "group", scope == null ? null : scope.getZone());
        payload.put("class", alert.getType());
        payload.set("custom_details", customDetails(alert));
        runbook(event, alert.getRunbookUrl(), alert.getType());
        byte[] encoded = bytes(event);
        if (encoded.length <= MAX_EVENT_BYTES) {
            return encoded;
        }
        ObjectNode note = MAPPER.createObjectNode();
        note.put("note", "custom_details removed: the event was " + encoded.length + " bytes, over PagerDuty's "
                + MAX_EVENT_BYTES + "-byte limit; the full alert is alert_id " + alert.getAlertId()
                + " on the alerts topic");
        note.put("alert_id", alert.getAlertId());
        payload.set("custom_details", note);
        return bytes(event);
    }

    private static void runbook(ObjectNode event, String url, String type) {
        if (url != null && !url.isBlank()) {
            ObjectNode link = event.putArray("links").addObject();
            link.put("href", url);
            link.put("text", "Runbook: " + type);
        }
    }

    /** Keys that fit are sent as they are, so PagerDuty shows the readable key; longer ones keep a readable prefix and a hash of the whole. */
    static String dedupKey(String key) {
        if (key.codePointCount(0, key.length()) <= MAX_DEDUP_KEY_CHARS) {
            return key;
        }
        String hash = HASH_MARK + sha256Hex(key);
        return prefixByCodePoints(key, MAX_DEDUP_KEY_CHARS - hash.length()) + hash;
    }

    /** Truncates by characters (code points, so a surrogate pair is never split) and marks the cut with "…". */
    static String truncate(String text, int maxChars) {
        if (text.codePointCount(0, text.length()) <= maxChars) {
            return text;
        }
        return prefixByCodePoints(text, maxChars - 1) + ELLIPSIS;
    }

    private static String prefixByCodePoints(String text, int codePoints) {
        return text.substring(0, text.offsetByCodePoints(0, codePoints));
    }

    /** PagerDuty wants "the unique location of the affected system": the host, else the load balancer, else the target group. */
    private static String source(AlertScope scope) {
        String source = scope == null ? null : firstNonNull(scope.getHost(), scope.getLb(), scope.getTargetGroup());
        return source == null ? "hcwatch" : source;
    }

    private static ObjectNode customDetails(Alert alert) {
        ObjectNode details = MAPPER.createObjectNode();
        details.put("alert_id", alert.getAlertId());
        if (alert.getWindowStart() != null) {
            details.put("window_start", alert.getWindowStart().toString());
        }
        if (alert.getWindowEnd() != null) {
            details.put("window_end", alert.getWindowEnd().toString());
        }
        ObjectNode scopeNode = details.putObject("scope");
        AlertScope scope = alert.getScope();
        if (scope != null) {
            putIfPresent(scopeNode, "lb", scope.getLb());
            putIfPresent(scopeNode, "target_group", scope.getTargetGroup());
            putIfPresent(scopeNode, "zone", scope.getZone());
            putIfPresent(scopeNode, "host", scope.getHost());
            putIfPresent(scopeNode, "frontend", scope.getFrontend());
            putIfPresent(scopeNode, "client", scope.getClient());
            putIfPresent(scopeNode, "target", scope.getTarget());
        }
        ObjectNode detailsNode = details.putObject("details");
        for (Map.Entry<String, String> e : new TreeMap<>(alert.getDetails()).entrySet()) {
            detailsNode.put(e.getKey(), e.getValue());
        }
        return details;
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    private static String firstNonNull(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    private static byte[] bytes(ObjectNode event) {
        try {
            return MAPPER.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not encode a PagerDuty event", e);
        }
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
