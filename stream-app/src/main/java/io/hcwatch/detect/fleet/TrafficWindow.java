package io.hcwatch.detect.fleet;

/**
 * Per-second request counts of a target group from its access logs, over a short sliding
 * window: how much traffic still succeeds, and how much reached targets marked unhealthy.
 */
public final class TrafficWindow {

    public long[] second;
    public long[] requests;
    public long[] succeeded;
    public long[] toUnhealthy;
    public long[] noTarget503;
    public long lastTrafficAt;

    public TrafficWindow() {
    }

    public TrafficWindow(int seconds) {
        second = new long[seconds];
        java.util.Arrays.fill(second, Long.MIN_VALUE);
        requests = new long[seconds];
        succeeded = new long[seconds];
        toUnhealthy = new long[seconds];
        noTarget503 = new long[seconds];
    }

    public void add(long ts, long requests, long succeeded, long toUnhealthy, long noTarget503) {
        long s = Math.floorDiv(ts, 1000);
        int i = (int) Math.floorMod(s, second.length);
        if (second[i] != s) {
            if (second[i] > s) {
                return;
            }
            second[i] = s;
            this.requests[i] = 0;
            this.succeeded[i] = 0;
            this.toUnhealthy[i] = 0;
            this.noTarget503[i] = 0;
        }
        this.requests[i] += requests;
        this.succeeded[i] += succeeded;
        this.toUnhealthy[i] += toUnhealthy;
        this.noTarget503[i] += noTarget503;
        lastTrafficAt = Math.max(lastTrafficAt, ts);
    }

    /** Sums over (now - window, now]: requests, succeeded, toUnhealthy, noTarget503. */
    public long[] totals(long now, long windowMillis) {
        long from = Math.floorDiv(now - windowMillis, 1000);
        long to = Math.floorDiv(now, 1000);
        long[] t = new long[4];
        for (int i = 0; i < second.length; i++) {
            if (second[i] > from && second[i] <= to) {
                t[0] += requests[i];
                t[1] += succeeded[i];
                t[2] += toUnhealthy[i];
                t[3] += noTarget503[i];
            }
        }
        return t;
    }
}
