package io.hcwatch.detect.fleet;

/**
 * What a target group looked like at each evaluation step: p50/p99 check latency, healthy
 * targets and request rate. Gives the peak p99 of the last hour (config-change risk), the p99
 * slope (time until it reaches the timeout), and load per healthy target over time (overload).
 *
 * <p>A ring of the last {@code capacity} steps, sized by what was recorded: it starts small and
 * grows, drops steps older than the capacity covers, and keeps one step for a run of empty ones
 * (no targets, no traffic, no latency): every query answers for the run as it would for each of
 * its steps (they are equal, and the NaN latencies count in no peak or slope). A target group that
 * stops sending shrinks back to a few entries.
 */
public final class StepHistory {

    private static final int INITIAL = 4;

    public long[] at;
    /** Quantiles are bucket values of a histogram (whole milliseconds): a float holds them exactly, in half the room. */
    public float[] p50;
    public float[] p99;
    public int[] healthy;
    public float[] requestRate;
    /** Targets in the registry at each step. */
    public int[] known;
    /** Where the next step goes; the entries are the {@code size} before it, oldest first, around the ring. */
    public int next;
    public int size;

    public StepHistory() {
    }

    /** An empty history; its arrays are allocated as steps come. */
    public static StepHistory empty() {
        StepHistory h = new StepHistory();
        h.resize(INITIAL);
        return h;
    }

    /**
     * Latency values may be NaN when the window had too few samples. Keeps at most
     * {@code capacity} steps of {@code stepMillis}: older ones are dropped, as a full ring would overwrite them.
     */
    public void add(long ts, double p50, double p99, int healthy, double requestRate, int known, int capacity, long stepMillis) {
        long oldest = ts - (long) capacity * stepMillis;
        while (size > 0 && at[index(0)] <= oldest && !runGoesOn(oldest, stepMillis)) {
            size--;
        }
        if (at.length > 1 && size <= at.length / 4) {
            // down to two entries: an idle target group keeps one, the run of empty steps
            resize(Math.max(1, size * 2));
        }
        boolean empty = Double.isNaN(p50) && Double.isNaN(p99) && healthy == 0 && requestRate == 0 && known == 0;
        if (empty && size > 0 && isEmpty(index(size - 1))) {
            return;
        }
        if (size == at.length) {
            if (size >= capacity) {
                size--;
            } else {
                resize(Math.min(capacity, at.length * 2));
            }
        }
        int i = next;
        this.known[i] = known;
        at[i] = ts;
        this.p50[i] = (float) p50;
        this.p99[i] = (float) p99;
        this.healthy[i] = healthy;
        this.requestRate[i] = (float) requestRate;
        next = (next + 1) % at.length;
        size++;
    }

    /**
     * Whether the oldest entry is an empty step standing for a run that reaches past {@code oldest}:
     * the run ends a step before the next entry, or goes on to now when there is none.
     */
    private boolean runGoesOn(long oldest, long stepMillis) {
        return isEmpty(index(0)) && (size == 1 || at[index(1)] - stepMillis > oldest);
    }

    private boolean isEmpty(int i) {
        return Double.isNaN(p50[i]) && Double.isNaN(p99[i]) && healthy[i] == 0 && requestRate[i] == 0 && known[i] == 0;
    }

    /** The array index of the k-th entry, oldest first. */
    private int index(int k) {
        return Math.floorMod(next - size + k, at.length);
    }

    private void resize(int length) {
        long[] a = new long[length];
        float[] q50 = new float[length];
        float[] q99 = new float[length];
        int[] h = new int[length];
        float[] rate = new float[length];
        int[] k = new int[length];
        for (int j = 0; j < size; j++) {
            int i = index(j);
            a[j] = at[i];
            q50[j] = p50[i];
            q99[j] = p99[i];
            h[j] = healthy[i];
            rate[j] = requestRate[i];
            k[j] = known[i];
        }
        at = a;
        p50 = q50;
        p99 = q99;
        healthy = h;
        requestRate = rate;
        known = k;
        next = size % length;
    }

    /** Highest p99 recorded in [from, to], or NaN if none. */
    public double peakP99(long from, long to) {
        double best = Double.NaN;
        for (int k = 0; k < size; k++) {
            int i = index(k);
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
        for (int k = 0; k < size; k++) {
            int i = index(k);
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

    /**
     * The latest step in [from, to] at which at most {@code share} of the targets known were
     * healthy (targets known at that step), or -1 when none.
     */
    public long lastAtMostHealthy(long from, long to, double share) {
        long last = -1;
        for (int k = 0; k < size; k++) {
            int i = index(k);
            if (at[i] >= from && at[i] <= to && known[i] > 0 && healthy[i] <= share * known[i] + 1e-9 && at[i] > last) {
                last = at[i];
            }
        }
        return last;
    }

    /** Targets known at the latest step at or before {@code ts}; -1 when no step was recorded by then. */
    public int knownAt(long ts) {
        int i = indexAtOrBefore(ts);
        return i < 0 ? -1 : known[i];
    }

    /** The step recorded closest to (at or before) {@code ts}, or -1. */
    public int indexAtOrBefore(long ts) {
        int best = -1;
        for (int k = 0; k < size; k++) {
            int i = index(k);
            if (at[i] <= ts && (best < 0 || at[i] > at[best])) {
                best = i;
            }
        }
        return best;
    }
}
