package io.hcwatch.registry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter: the n-th wait is drawn from the upper half of
 * {@code min(max, initial * 2^n)}, so clients that failed together do not retry together.
 */
final class RetryBackoff {

    private final long initialMillis;
    private final long maxMillis;

    RetryBackoff(Duration initial, Duration max) {
        this.initialMillis = Math.max(1, initial.toMillis());
        this.maxMillis = Math.max(initialMillis, max.toMillis());
    }

    /** The wait before retry number {@code retry} (0 for the first retry). */
    Duration delay(int retry) {
        long ceiling = ceiling(retry);
        long half = ceiling / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(ceiling - half + 1));
    }

    /** The largest wait {@link #delay} can give for {@code retry}. */
    long ceiling(int retry) {
        long ceiling = initialMillis;
        for (int i = 0; i < retry && ceiling < maxMillis; i++) {
            ceiling = ceiling > maxMillis / 2 ? maxMillis : ceiling * 2;
        }
        return Math.min(ceiling, maxMillis);
    }
}
