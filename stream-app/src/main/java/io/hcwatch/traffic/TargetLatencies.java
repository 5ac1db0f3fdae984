package io.hcwatch.traffic;

import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.input.TargetSummary;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** One target-group second's latency sketches by target, as the combiner filled them. */
final class TargetLatencies implements TargetSummary.LiveLatencies {

    private final Map<String, Histogram> byTarget;

    TargetLatencies(Map<String, Histogram> byTarget) {
        this.byTarget = byTarget;
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
