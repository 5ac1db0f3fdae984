package io.hcwatch.collect.aws;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A client-side request budget for an API whose limit is shared by the whole account and region
 * (ELBv2's Describe* calls share one token bucket): at most {@code perSecond} requests a second on
 * average, at most {@code burst} back to back, and nothing at all while a throttle pause runs.
 * Callers wait in {@link #acquire()}; it is a generic cell rate algorithm, so waiting callers are
 * spaced evenly rather than released in bursts, and no window of {@code w} seconds holds more than
 * {@code w × perSecond + burst − 1} requests (counted at acquire: a request that is then not sent,
 * or fails, still counts). Thread-safe.
 */
public final class ApiBudget {

    /** Waits; the test's stand-in advances a clock instead. */
    @FunctionalInterface
    public interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final long spacingNanos;
    private final long toleranceNanos;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private long theoreticalArrival;
    private long pausedUntil;

    public ApiBudget(double perSecond, int burst, LongSupplier nanoTime, Sleeper sleeper) {
        if (!(perSecond > 0) || burst < 1) {
            throw new IllegalArgumentException("need a positive rate and burst, got " + perSecond + " and " + burst);
        }
        // rounded up: truncated, 6/s spaced requests 166,666,666 ns apart and let a 361st into a minute
        this.spacingNanos = (long) Math.ceil(1e9 / perSecond);
        this.toleranceNanos = spacingNanos * (burst - 1);
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.theoreticalArrival = nanoTime.getAsLong();
        this.pausedUntil = theoreticalArrival;
    }

    public static ApiBudget system(double perSecond, int burst) {
        return new ApiBudget(perSecond, burst, System::nanoTime, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** Blocks until the next request may be sent, then counts it against the budget. */
    public void acquire() throws InterruptedException {
        long wait;
        synchronized (this) {
            long now = nanoTime.getAsLong();
            long allowedAt = theoreticalArrival - toleranceNanos;
            if (pausedUntil - allowedAt > 0) {
                allowedAt = pausedUntil;
            }
            long sendAt = allowedAt - now > 0 ? allowedAt : now;
            wait = sendAt - now;
            theoreticalArrival = (theoreticalArrival - sendAt > 0 ? theoreticalArrival : sendAt) + spacingNanos;
        }
        if (wait > 0) {
            sleeper.sleepNanos(wait);
        }
    }

    /** The API said slow down: no request leaves before {@code pause} has passed. */
    public synchronized void pause(Duration pause) {
        long until = nanoTime.getAsLong() + pause.toNanos();
        if (until - pausedUntil > 0) {
            pausedUntil = until;
        }
    }

    public double perSecond() {
        return 1e9 / spacingNanos;
    }
}
