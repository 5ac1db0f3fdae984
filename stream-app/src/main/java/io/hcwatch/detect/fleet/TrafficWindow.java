package io.hcwatch.detect.fleet;

import java.util.Arrays;

/**
 * Per-second request counts of a target group from its access logs, over a short sliding
 * window: how much traffic still succeeds, and how much reached targets marked unhealthy.
 * Allocated on the first summary and released once every second it holds is out of the window
 * ({@link #expire}): most target groups of a health-check-only input never send traffic.
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

    /** Adds one second's counts; {@code seconds} is how many seconds the window keeps. */
    public void add(long ts, long requests, long succeeded, long toUnhealthy, long noTarget503, int seconds) {
        if (second == null) {
            second = new long[seconds];
            Arrays.fill(second, Long.MIN_VALUE);
            this.requests = new long[seconds];
            this.succeeded = new long[seconds];
            this.toUnhealthy = new long[seconds];
            this.noTarget503 = new long[seconds];
        }
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

    /** Releases the counts once the newest second is older than the whole ring at {@code now}. */
    public void expire(long now) {
        if (second != null && Math.floorDiv(lastTrafficAt, 1000) <= Math.floorDiv(now, 1000) - second.length) {
            second = null;
            requests = null;
            succeeded = null;
            toUnhealthy = null;
            noTarget503 = null;
        }
    }

    /** Sums over (now - window, now]: requests, succeeded, toUnhealthy, noTarget503. */
    public long[] totals(long now, long windowMillis) {
        long[] t = new long[4];
        if (second == null) {
            return t;
        }
        long from = Math.floorDiv(now - windowMillis, 1000);
        long to = Math.floorDiv(now, 1000);
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
