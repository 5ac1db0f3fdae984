package io.hcwatch.detect.fleet;

import io.hcwatch.detect.Fmt;

/** Load per healthy target and check latency now versus one window earlier, from the step history. */
record LoadTrend(int healthyBefore, int healthyNow, double loadBefore, double loadNow, double p50Before, double p50Now,
                 double riseRatio) {

    static LoadTrend of(FleetState s, long now, long window, double riseRatio) {
        StepHistory h = s.history;
        int before = h.indexAtOrBefore(now - window);
        int latest = h.indexAtOrBefore(now);
        if (before < 0 || latest < 0 || before == latest) {
            return new LoadTrend(-1, s.healthy(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, riseRatio);
        }
        return new LoadTrend(h.healthy[before], s.healthy(),
                perTarget(h.requestRate[before], h.healthy[before]), perTarget(h.requestRate[latest], h.healthy[latest]),
                h.p50[before], h.p50[latest], riseRatio);
    }

    private static double perTarget(double rate, int healthy) {
        return healthy <= 0 ? Double.NaN : rate / healthy;
    }

    boolean healthyDropped() {
        return healthyBefore > 0 && healthyNow < healthyBefore;
    }

    boolean loadRose() {
        return !Double.isNaN(loadBefore) && !Double.isNaN(loadNow) && loadBefore > 0 && loadNow >= riseRatio * loadBefore;
    }

    boolean latencyRose() {
        return !Double.isNaN(p50Before) && !Double.isNaN(p50Now) && p50Before > 0 && p50Now >= riseRatio * p50Before;
    }

    String describeLoadChange() {
        if (Double.isNaN(loadBefore) || Double.isNaN(loadNow)) {
            return "unknown";
        }
        return Fmt.decimal(loadBefore, 1) + " -> " + Fmt.decimal(loadNow, 1) + " req/s";
    }

    String describeLatencyChange() {
        if (Double.isNaN(p50Before) || Double.isNaN(p50Now)) {
            return "unknown";
        }
        return Fmt.ms(p50Before) + " -> " + Fmt.ms(p50Now);
    }
}
