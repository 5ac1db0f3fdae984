package io.hcwatch.incident;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;

/**
 * What one incident is about: a target group (every fleet alert of the group, its zones and targets),
 * an HAProxy frontend (slot exhaustion on any of its hosts and floods on it), an HAProxy host's process
 * (slot exhaustion of the whole process), a load balancer (floods at an ALB) or a feed (telemetry_gap).
 * A frontend is one scope across its hosts because client_flood sums a frontend's hosts.
 *
 * @param kind target_group, frontend, host, lb or feed
 */
public record IncidentScope(String kind, String name) {

    private static final String FEED_PREFIX = "telemetry_gap/";

    /** {@code <kind>/<name>}: the incidents topic's key and PagerDuty's dedup_key. */
    public String key() {
        return kind + "/" + name;
    }

    /** The scope an alert belongs to; an alert whose scope names none of them is an incident of its own. */
    public static IncidentScope of(Alert alert) {
        AlertScope s = alert.getScope();
        if (alert.getType().equals("telemetry_gap")) {
            String key = alert.getDedupKey();
            return new IncidentScope("feed", key.startsWith(FEED_PREFIX) ? key.substring(FEED_PREFIX.length()) : key);
        }
        if (s != null && s.getTargetGroup() != null) {
            return new IncidentScope("target_group", s.getTargetGroup());
        }
        if (s != null && s.getFrontend() != null) {
            return new IncidentScope("frontend", s.getFrontend());
        }
        if (s != null && s.getHost() != null) {
            return new IncidentScope("host", s.getHost());
        }
        if (s != null && s.getLb() != null) {
            return new IncidentScope("lb", s.getLb());
        }
        return new IncidentScope("alert", alert.getDedupKey());
    }
}
