package io.hcwatch.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counters of what the pipeline did with its inputs and what it alerted on. Tags are bounded:
 * source, reason and kind come from fixed sets, never from the data (no client or target names).
 */
public final class PipelineMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public PipelineMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** For tests and replay runs that do not export metrics. */
    public static PipelineMetrics discarding() {
        return new PipelineMetrics(new SimpleMeterRegistry());
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void parsed(String source) {
        counter("hcwatch.records", "source", source, "outcome", "parsed").increment();
    }

    public void rejected(String source, String reason) {
        counter("hcwatch.records", "source", source, "outcome", "rejected").increment();
        counter("hcwatch.records.rejected", "source", source, "reason", reason).increment();
    }

    public void skipped(String source, String kind) {
        counter("hcwatch.records", "source", source, "outcome", "skipped").increment();
        counter("hcwatch.records.skipped", "source", source, "kind", kind).increment();
    }

    /** A record older than its monitor's clock minus the grace period. */
    public void late(String monitor) {
        counter("hcwatch.records.late", "monitor", monitor).increment();
    }

    public void alert(String type, String severity, String status) {
        counter("hcwatch.alerts", "type", type, "severity", severity, "status", status).increment();
    }

    private Counter counter(String name, String... tags) {
        String key = name + String.join("\u0000", tags);
        return counters.computeIfAbsent(key, k -> Counter.builder(name).tags(tags).register(registry));
    }
}
