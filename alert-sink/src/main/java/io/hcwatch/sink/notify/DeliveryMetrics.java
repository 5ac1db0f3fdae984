package io.hcwatch.sink.notify;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Counters and timers of the alert sink. Every tag value comes from a fixed set: alert types not in
 * SPEC section 3 are counted as {@code other}, so a producer that invents types cannot blow up the
 * number of series.
 */
public final class DeliveryMetrics {

    static final Set<String> KNOWN_ALERT_TYPES = Set.of(
            "correlated_failure", "zonal_failure", "health_latency_headroom", "health_check_config_risk",
            "replacement_churn", "socket_slot_exhaustion", "client_flood", "fail_open_routing",
            "dns_failover", "no_healthy_targets");

    private final MeterRegistry registry;

    public DeliveryMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void delivered(String sink, String alertType, Duration latency) {
        Counter.builder("hcwatch.sink.alerts.delivered")
                .description("Alerts a receiver accepted")
                .tag("sink", sink)
                .tag("alert_type", boundedType(alertType))
                .register(registry)
                .increment();
        latency(sink, "delivered", latency);
    }

    public void retried(String sink, String statusClass) {
        Counter.builder("hcwatch.sink.delivery.retries")
                .description("Attempts that failed in a way worth retrying and were retried")
                .tag("sink", sink)
                .tag("status_class", statusClass)
                .register(registry)
                .increment();
    }

    /** {@code sink} is {@code none} for records that never reached a receiver (undecodable). */
    public void deadLettered(String sink, String statusClass, Duration latency) {
        Counter.builder("hcwatch.sink.alerts.dead.lettered")
                .description("Alerts written to the dead-letter topic instead of being delivered")
                .tag("sink", sink)
                .tag("status_class", statusClass)
                .register(registry)
                .increment();
        if (latency != null) {
            latency(sink, "dead_lettered", latency);
        }
    }

    private void latency(String sink, String outcome, Duration latency) {
        Timer.builder("hcwatch.sink.delivery.latency")
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
