package io.hcwatch.traffic;

import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.input.TargetSummary;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** One target-group second's latency sketches by target, as the combiner fills them. */
final class TargetLatencies implements TargetSummary.LiveLatencies {

    private final Map<String, Histogram> byTarget = new HashMap<>();

    void record(String target, double ms) {
        LatencySketch.record(byTarget.computeIfAbsent(target, k -> LatencySketch.create()), ms);
    }

    /** Puts back a sketch read from a store; null (none logged) puts nothing. */
    void restore(String target, Histogram sketch) {
        if (sketch != null) {
            byTarget.put(target, sketch);
        }
    }

    @Override
    public Histogram of(String target) {
        return byTarget.get(target);
    }

    @Override
    public void writeInto(TargetTraffic traffic) {
        traffic.getByTarget().forEach((target, c) -> c.setLatency(LatencySketch.encode(byTarget.get(target))));
    }
}
