package io.hcwatch.collect;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: the n-th consecutive failure waits {@code initial × 2^(n-1)},
 * capped at {@code max}, and then up to half of that is taken off at random ("equal jitter"), so collectors
 * that lost the same HAProxy at once do not come back in step.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier random;

    /** @param random values in [0, 1) */
    public Backoff(Duration initial, Duration max, DoubleSupplier random) {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max, got " + initial + " and " + max);
        }
        this.initial = initial;
        this.max = max;
        this.random = random;
    }

    /** The wait after {@code failures} consecutive failures (1 for the first). */
    public Duration delay(int failures) {
        if (failures < 1) {
            return Duration.ZERO;
        }
        long capMs = max.toMillis();
        long ms = initial.toMillis();
        for (int i = 1; i < failures && ms < capMs; i++) {
            ms *= 2;
        }
        ms = Math.min(ms, capMs);
        long half = ms / 2;
        return Duration.ofMillis(ms - half + (long) (random.getAsDouble() * half));
    }
}
