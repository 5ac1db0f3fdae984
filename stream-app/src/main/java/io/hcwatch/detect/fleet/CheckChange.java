package io.hcwatch.detect.fleet;

/**
 * A change of a target group's health-check settings, as it was seen: when, from what to what,
 * and the peak p99 check latency of the hour before it (NaN when unknown), which is what the
 * new timeout is judged against.
 */
public final class CheckChange {
    public long at;
    public CheckSettings before;
    public CheckSettings after;
    public double peakP99 = Double.NaN;

    public CheckChange() {
    }

    CheckChange(long at, CheckSettings before, CheckSettings after, double peakP99) {
        this.at = at;
        this.before = before;
        this.after = after;
        this.peakP99 = peakP99;
    }
}
