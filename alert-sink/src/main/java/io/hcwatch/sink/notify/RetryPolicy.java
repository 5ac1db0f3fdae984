package io.hcwatch.sink.notify;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": the n-th wait is drawn uniformly from
 * [d/2, d] where d = min(maxBackoff, initialBackoff × 2^(n-1)). Half the wait is fixed so a
 * burst of 429s cannot turn into an immediate retry storm; the other half spreads the instances
 * that failed together.
 *
 * @param maxAttempts total attempts including the first; 0 means no limit
 * @param maxElapsed how long one alert may be retried, measured from its first attempt; zero means no limit
 */
public record RetryPolicy(int maxAttempts, Duration maxElapsed, Duration initialBackoff, Duration maxBackoff) {

    public RetryPolicy {
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("maxAttempts must be >= 0 (0 = no limit), got " + maxAttempts);
        }
        if (maxElapsed.isNegative()) {
            throw new IllegalArgumentException("maxElapsed must be >= 0 (0 = no limit), got " + maxElapsed);
        }
        if (initialBackoff.isNegative() || initialBackoff.isZero()) {
            throw new IllegalArgumentException("initialBackoff must be > 0, got " + initialBackoff);
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff " + maxBackoff + " is below initialBackoff " + initialBackoff);
        }
    }

    /** The wait before retry number {@code retry} (1 = the wait after the first failed attempt). */
    public Duration backoff(int retry, DoubleSupplier random) {
        long ceilingNanos = initialBackoff.toNanos();
        for (int i = 1; i < retry && ceilingNanos < maxBackoff.toNanos(); i++) {
            ceilingNanos *= 2;
        }
        ceilingNanos = Math.min(ceilingNanos, maxBackoff.toNanos());
        long half = ceilingNanos / 2;
        return Duration.ofNanos(half + (long) (random.getAsDouble() * (ceilingNanos - half)));
    }

    /** Whether another attempt is allowed after {@code attemptsMade} attempts over {@code elapsed}, waiting {@code nextWait} first. */
    public boolean allowsAnother(int attemptsMade, Duration elapsed, Duration nextWait) {
        if (maxAttempts > 0 && attemptsMade >= maxAttempts) {
            return false;
        }
        return maxElapsed.isZero() || elapsed.plus(nextWait).compareTo(maxElapsed) <= 0;
    }
}
