package io.hcwatch.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * A client-side request budget, for every client in hcwatch that must stay under a rate someone
 * else enforces (ELBv2's account-wide Describe* bucket, PagerDuty's events per routing key): at
 * most {@code perSecond} requests a second on average, at most {@code burst} back to back, and
 * nothing at all while a throttle pause runs. It is a generic cell rate algorithm: waiting callers
 * are spaced evenly rather than released in bursts, an idle spell saves up no more than the burst,
 * and no window of {@code w} seconds holds more than {@code w × perSecond + burst − 1} requests
 * (counted when reserved: a request that is then not sent, or fails, still counts). Thread-safe;
 * callers wait outside the lock, in arrival order, and an interrupt ends the wait.
 */
public final class RateLimiter {

    private final long spacingNanos;
    private final long toleranceNanos;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private long theoreticalArrival;
    private long pausedUntil;

    /** @param nanoTime a monotonic nanosecond count; only differences are used */
    public RateLimiter(double perSecond, int burst, LongSupplier nanoTime, Sleeper sleeper) {
        // rounded up: truncated, 6/s spaced requests 166,666,666 ns apart and let a 361st into a minute
        this(perSecond > 0 ? (long) Math.ceil(1e9 / perSecond) : 0, burst, nanoTime, sleeper);
    }

    private RateLimiter(long spacingNanos, int burst, LongSupplier nanoTime, Sleeper sleeper) {
        if (spacingNanos < 1 || burst < 1) {
            throw new IllegalArgumentException("need a positive rate and burst, got one per " + spacingNanos + " ns and " + burst);
        }
        this.spacingNanos = spacingNanos;
        this.toleranceNanos = spacingNanos * (burst - 1);
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.theoreticalArrival = nanoTime.getAsLong();
        this.pausedUntil = theoreticalArrival;
    }

    /** On the system's clock, sleeping the calling thread. */
    public static RateLimiter system(double perSecond, int burst) {
        return new RateLimiter(perSecond, burst, System::nanoTime, Sleeper.SYSTEM);
    }

    /**
     * At most {@code perWindow} requests in any {@code window}: {@code burst} of them at once and the
     * rest at the steady rate {@code (perWindow − burst) / window}.
     */
    public static RateLimiter perWindow(int perWindow, int burst, Duration window, Clock clock, Sleeper sleeper) {
        if (burst < 1 || burst >= perWindow) {
            throw new IllegalArgumentException("burst must be between 1 and " + (perWindow - 1) + ", got " + burst);
        }
        long steady = perWindow - burst;
        // in whole nanoseconds, rounded up, so the window's figure is never exceeded by rounding
        return new RateLimiter((window.toNanos() + steady - 1) / steady, burst, () -> epochNanos(clock.instant()), sleeper);
    }

    /** Counts one request against the budget and returns how long to wait before sending it (zero: at once). */
    public synchronized Duration reserve() {
        long now = nanoTime.getAsLong();
        long allowedAt = theoreticalArrival - toleranceNanos;
        if (pausedUntil - allowedAt > 0) {
            allowedAt = pausedUntil;
        }
        long sendAt = allowedAt - now > 0 ? allowedAt : now;
        theoreticalArrival = (theoreticalArrival - sendAt > 0 ? theoreticalArrival : sendAt) + spacingNanos;
        return Duration.ofNanos(sendAt - now);
    }

    /** Blocks until the next request may be sent, then counts it against the budget. */
    public void acquire() throws InterruptedException {
        sleeper.sleep(reserve());
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

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
