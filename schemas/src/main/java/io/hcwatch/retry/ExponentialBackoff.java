package io.hcwatch.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter", for every client in hcwatch that retries (the Schema
 * Registry client, the alert sink's receivers): the wait before retry n is drawn uniformly from
 * [c/2, c] where c = min(max, initial × 2^(n-1)). Half the wait is fixed so a burst of 429s cannot
 * turn into an immediate retry storm; the other half spreads the clients that failed together.
 */
public final class ExponentialBackoff {

    private final long initialNanos;
    private final long maxNanos;

    /** @throws IllegalArgumentException when {@code initial} is not positive or {@code max} is below it */
    public ExponentialBackoff(Duration initial, Duration max) {
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be > 0, got " + initial);
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff " + max + " is below initial backoff " + initial);
        }
        this.initialNanos = saturatedNanos(initial);
        // A cap of 292 years or more waits as long as 292 years do.
        this.maxNanos = saturatedNanos(max);
    }

    /** The longest wait before retry number {@code retry} (1 = the wait after the first failed attempt). */
    public Duration ceiling(int retry) {
        return Duration.ofNanos(ceilingNanos(retry));
    }

    /** The wait before retry number {@code retry}, jittered by ThreadLocalRandom. */
    public Duration delay(int retry) {
        return delay(retry, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The wait before retry number {@code retry}, jittered by {@code random} (in [0, 1]). */
    public Duration delay(int retry, DoubleSupplier random) {
        long ceiling = ceilingNanos(retry);
        long half = ceiling / 2;
        // min: the double product can round past the ceiling when the ceiling is near Long.MAX_VALUE
        return Duration.ofNanos(Math.min(ceiling, half + (long) (random.getAsDouble() * (ceiling - half))));
    }

    private long ceilingNanos(int retry) {
        long ceiling = initialNanos;
        for (int i = 1; i < retry && ceiling < maxNanos; i++) {
            ceiling = ceiling > maxNanos / 2 ? maxNanos : ceiling * 2;
        }
        return Math.min(ceiling, maxNanos);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
