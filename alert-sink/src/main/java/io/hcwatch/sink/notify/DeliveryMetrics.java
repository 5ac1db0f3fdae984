package io.hcwatch.sink.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;

/**
 * Counters and timers of the alert sink. Every tag value comes from a fixed set: alert types not in
 * docs/contract.md ("Alert types") are counted as {@code other}, so a producer that invents types cannot blow up the
 * number of series.
 */
public final class DeliveryMetrics {

    static final Set<String> KNOWN_ALERT_TYPES = Set.of(
            "correlated_failure", "zonal_failure", "health_latency_headroom", "health_check_config_risk",
            "replacement_churn", "socket_slot_exhaustion", "client_flood", "fail_open_routing",
            "dns_failover", "no_healthy_targets", "gray_failure", "telemetry_gap");

    public static final String DELIVERED = "hcwatch.sink.alerts.delivered";
    public static final String RETRIES = "hcwatch.sink.delivery.retries";
    public static final String DEAD_LETTERED = "hcwatch.sink.alerts.dead.lettered";
    public static final String LATENCY = "hcwatch.sink.delivery.latency";
    public static final String BLOCKED = "hcwatch.sink.delivery.blocked";
    public static final String BLOCKED_SECONDS = "hcwatch.sink.delivery.blocked.seconds";
    private static final String[] RETRYABLE_CLASSES = {"429", "5xx", "network"};

    private final MeterRegistry registry;

    public DeliveryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Registers at zero the series that alert rules and the dashboard read, for each receiver in
     * use: a counter born at 1 would show no {@code increase()} for its first event. Only refusals
     * (4xx) are dead-lettered; retryable failures show up as retries and as {@code blocked}.
     */
    public DeliveryMetrics initialize(Collection<String> sinks, BlockedDeliveries blocked) {
        for (String sink : sinks) {
            KNOWN_ALERT_TYPES.forEach(type -> deliveredCounter(sink, type));
            for (String statusClass : RETRYABLE_CLASSES) {
                retriesCounter(sink, statusClass);
                Gauge.builder(BLOCKED, blocked, b -> b.count(sink, statusClass))
                        .description("Deliveries (one per partition) held by a retryable failure of this class")
                        .tag("sink", sink)
                        .tag("status_class", statusClass)
                        .strongReference(true)
                        .register(registry);
            }
            Gauge.builder(BLOCKED_SECONDS, blocked, b -> b.longest(sink).toMillis() / 1000.0)
                    .description("How long the longest-held delivery has been failing with retryable errors; 0 when none is")
                    .tag("sink", sink)
                    .strongReference(true)
                    .register(registry);
            deadLetteredCounter(sink, "4xx");
        }
        deadLetteredCounter("none", "undecodable");
        return this;
    }

    public void delivered(String sink, String alertType, Duration latency) {
        deliveredCounter(sink, boundedType(alertType)).increment();
        latency(sink, "delivered", latency);
    }

    public void retried(String sink, String statusClass) {
        retriesCounter(sink, statusClass).increment();
    }

    /** {@code sink} is {@code none} for records that never reached a receiver (undecodable). */
    public void deadLettered(String sink, String statusClass, Duration latency) {
        deadLetteredCounter(sink, statusClass).increment();
        if (latency != null) {
            latency(sink, "dead_lettered", latency);
        }
    }

    private Counter deliveredCounter(String sink, String alertType) {
        return Counter.builder(DELIVERED)
                .description("Alerts a receiver accepted")
                .tag("sink", sink)
                .tag("alert_type", alertType)
                .register(registry);
    }

    private Counter retriesCounter(String sink, String statusClass) {
        return Counter.builder(RETRIES)
                .description("Attempts that failed in a way worth retrying and were retried")
                .tag("sink", sink)
                .tag("status_class", statusClass)
                .register(registry);
    }

    private Counter deadLetteredCounter(String sink, String statusClass) {
        return Counter.builder(DEAD_LETTERED)
                .description("Alerts written to the dead-letter topic instead of being delivered")
                .tag("sink", sink)
                .tag("status_class", statusClass)
                .register(registry);
    }

    private void latency(String sink, String outcome, Duration latency) {
        Timer.builder(LATENCY)
                .description("From the first attempt to deliver an alert to its outcome, retries included")
                .tag("sink", sink)
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .register(registry)
                .record(latency);
    }

    static String boundedType(String type) {
        String normalized = type == null ? "" : type.toLowerCase(Locale.ROOT);
        return KNOWN_ALERT_TYPES.contains(normalized) ? normalized : "other";
    }
}
