package io.hcwatch.detect.fleet;

/**
 * What a target group looked like at each evaluation step: p50/p99 check latency, healthy
 * targets and request rate. Gives the peak p99 of the last hour (config-change risk), the p99
 * slope (time until it reaches the timeout), and load per healthy target over time (overload).
 * A fixed ring, so memory stays bounded.
 */
public final class StepHistory {

    public long[] at;
    public double[] p50;
    public double[] p99;
    public int[] healthy;
    public double[] requestRate;
    /** Targets in the registry at each step. */
    public int[] known;
    public int next;
    public int size;

    public StepHistory() {
    }

    public StepHistory(int capacity) {
        at = new long[capacity];
        p50 = new double[capacity];
        p99 = new double[capacity];
        healthy = new int[capacity];
        requestRate = new double[capacity];
        known = new int[capacity];
    }

    /** Latency values may be NaN when the window had too few samples. */
    public void add(long ts, double p50, double p99, int healthy, double requestRate, int known) {
        this.known[next] = known;
        at[next] = ts;
        this.p50[next] = p50;
        this.p99[next] = p99;
        this.healthy[next] = healthy;
        this.requestRate[next] = requestRate;
        next = (next + 1) % at.length;
        size = Math.min(size + 1, at.length);
    }

    /** Highest p99 recorded in [from, to], or NaN if none. */
    public double peakP99(long from, long to) {
        double best = Double.NaN;
        for (int i = 0; i < size; i++) {
            if (at[i] >= from && at[i] <= to && !Double.isNaN(p99[i]) && (Double.isNaN(best) || p99[i] > best)) {
                best = p99[i];
            }
        }
        return best;
    }

    /** Least-squares slope of p99 over [from, to] in ms of latency per second; NaN below 3 points. */
    public double p99SlopePerSecond(long from, long to) {
        int n = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < size; i++) {
            if (at[i] >= from && at[i] <= to && !Double.isNaN(p99[i])) {
                double x = (at[i] - from) / 1000.0;
                double y = p99[i];
                n++;
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
        }
        double denominator = n * sxx - sx * sx;
        if (n < 3 || denominator == 0) {
            return Double.NaN;
        }
        return (n * sxy - sx * sy) / denominator;
    }

    /** Targets known at the latest step at or before {@code ts}; -1 when no step was recorded by then. */
    public int knownAt(long ts) {
        int i = indexAtOrBefore(ts);
        return i < 0 ? -1 : known[i];
    }

    /** The step recorded closest to (at or before) {@code ts}, or -1. */
    public int indexAtOrBefore(long ts) {
        int best = -1;
        for (int i = 0; i < size; i++) {
            if (at[i] <= ts && (best < 0 || at[i] > at[best])) {
                best = i;
            }
        }
        return best;
    }
}
