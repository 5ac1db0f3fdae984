package io.hcwatch.simulate;

import io.hcwatch.avro.v1.TargetState;

/** One registered target (an instance behind the ALB) and everything the models know about it. */
final class AlbTarget {

    final String id;
    final String ip;
    final int port;
    final int zone;
    final long registeredAt;
    /** When its application started: cold starts are measured from here. */
    final long bootedAt;
    /** Fixed per-instance speed (noisy neighbours, instance quality): 1 is typical. */
    final double factor;

    TargetState state;
    int passes;
    int fails;
    String failReason;
    long unhealthySince;

    /** Slowly varying extra latency (log scale): GC, cache misses, neighbours. */
    double stress;
    long stressAt;

    /** Requests per second routed here, smoothed over a few seconds. */
    double rate;
    int routedThisTick;

    boolean draining;
    boolean replacing;
    long blipUntil;
    boolean blipTimesOut;
    double slowNextCheck = 1;
    /** From when a leak makes /health answer 500, and how long until it nearly always does. */
    long leakFrom = Long.MAX_VALUE;
    long leakRampMs;

    AlbTarget(String id, String ip, int port, int zone, long registeredAt, long bootedAt, double factor, TargetState state) {
        this.id = id;
        this.ip = ip;
        this.port = port;
        this.zone = zone;
        this.registeredAt = registeredAt;
        this.bootedAt = bootedAt;
        this.factor = factor;
        this.state = state;
        this.stressAt = registeredAt;
    }

    String address() {
        return ip + ":" + port;
    }

    boolean healthy() {
        return state == TargetState.healthy;
    }

    /** Share of /health calls the leak fails at {@code t} (0 before the leak starts). */
    double leakFailure(long t) {
        if (t < leakFrom) {
            return 0;
        }
        return Math.min(0.97, 0.2 + 0.8 * (t - leakFrom) / (double) Math.max(1, leakRampMs));
    }
}
