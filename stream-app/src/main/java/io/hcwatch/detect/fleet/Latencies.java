package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.detect.SparseMaps;
import java.util.Map;

/**
 * Health-check latencies over sliding event-time windows: all checks, passing ones, failing ones of
 * the targets whose failures count, and the last timeout per target.
 */
public final class Latencies {
    public SlidingHistogram all;
    public SlidingHistogram failing;
    public SlidingHistogram passing;
    /** The shared empty map while no target has timed out ({@link SparseMaps}). */
    public Map<String, Long> timeoutsAt = SparseMaps.none();

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

    /**
     * @param failureCounts whether a failure of this target counts as the target group's
     *                      ({@link Registry#failuresCount}): the failing latencies are those of the
     *                      targets correlated_failure counts, so that a server refusing connections
     *                      in 0 ms while it starts does not make the fleet's timeouts look fast
     */
    void record(HealthCheckResult r, long ts, boolean failureCounts) {
        if (r.getLatencyMs() != null) {
            all.record(ts, r.getLatencyMs());
            if (!Registry.hasVerdict(r)) {
                return;
            }
            if (r.getOutcome() != CheckOutcome.pass) {
                if (failureCounts) {
                    failing.record(ts, r.getLatencyMs());
                }
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

    void timedOut(String target, long ts) {
        timeoutsAt = SparseMaps.writable(timeoutsAt);
        timeoutsAt.put(target, ts);
    }

    void forget(String target) {
        if (timeoutsAt.containsKey(target)) {
            timeoutsAt.remove(target);
            timeoutsAt = SparseMaps.compact(timeoutsAt);
        }
    }

    /** Timeouts of distinct targets since {@code from}. */
    public int timeoutTargetsSince(long from) {
        return (int) timeoutsAt.values().stream().filter(t -> t > from).count();
    }
}
