package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import java.util.HashMap;
import java.util.Map;

/** Health-check latencies over sliding event-time windows: all checks, failing and passing ones, and the last timeout per target. */
public final class Latencies {
    public SlidingHistogram all;
    public SlidingHistogram failing;
    public SlidingHistogram passing;
    public Map<String, Long> timeoutsAt = new HashMap<>();

    public Latencies() {
    }

    static Latencies of(FleetSettings settings) {
        Latencies l = new Latencies();
        long window = settings.headroom().windowMillis();
        l.all = new SlidingHistogram(window, 6);
        l.failing = new SlidingHistogram(settings.correlated().windowMillis(), 6);
        l.passing = new SlidingHistogram(window, 6);
        return l;
    }

    void record(HealthCheckResult r, long ts) {
        if (r.getLatencyMs() != null) {
            all.record(ts, r.getLatencyMs());
            if (!Registry.hasVerdict(r)) {
                return;
            }
            if (r.getOutcome() != CheckOutcome.pass) {
                failing.record(ts, r.getLatencyMs());
            } else {
                passing.record(ts, r.getLatencyMs());
            }
        }
    }

    /** Drops samples no window can include any more. */
    void expire(long now) {
        all.expire(now);
        failing.expire(now);
        passing.expire(now);
    }

    /** Timeouts of distinct targets since {@code from}. */
    public int timeoutTargetsSince(long from) {
        return (int) timeoutsAt.values().stream().filter(t -> t > from).count();
    }
}
