package io.hcwatch.topology;

import java.util.EnumMap;
import java.util.Map;

/** Topic names (the defaults of docs/contract.md, "Topics"; each configurable). */
public record Topics(Map<Source, String> inputs, String alerts, String deadLetters, String incidents) {

    public static Topics defaults() {
        Map<Source, String> in = new EnumMap<>(Source.class);
        in.put(Source.ALB, "alb-access-logs");
        in.put(Source.ALB_HEALTH, "alb-health-check-logs");
        in.put(Source.HAPROXY, "haproxy-logs");
        in.put(Source.HEALTH, "health-check-results");
        in.put(Source.HAPROXY_STATS, "haproxy-stats");
        in.put(Source.CONFIG, "lb-config");
        return new Topics(in, "alerts", "telemetry-dlq", "incidents");
    }

    public String input(Source source) {
        return inputs.get(source);
    }

    public Topics withInput(Source source, String topic) {
        Map<Source, String> in = new EnumMap<>(inputs);
        in.put(source, topic);
        return new Topics(in, alerts, deadLetters, incidents);
    }

    public Topics withAlerts(String topic) {
        return new Topics(inputs, topic, deadLetters, incidents);
    }

    public Topics withDeadLetters(String topic) {
        return new Topics(inputs, alerts, topic, incidents);
    }

    public Topics withIncidents(String topic) {
        return new Topics(inputs, alerts, deadLetters, topic);
    }
}
