package io.hcwatch.sink.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A token bucket that hands out reservations: a caller always gets its token, and is told how long
 * to wait before using it. Waiting outside the lock keeps callers in arrival order and lets an
 * interrupt end the wait.
 *
 * <p>With {@code burst} tokens and a refill of {@code perWindow − burst} per {@code window}, no
 * window of that length ever sees more than {@code perWindow} grants.
 */
public final class TokenBucket {

    private final double capacity;
    private final double refillPerNano;
    private final Clock clock;
    private double tokens;
    private Instant updated;

    public TokenBucket(int perWindow, int burst, Duration window, Clock clock) {
        if (burst < 1 || burst >= perWindow) {
            throw new IllegalArgumentException("burst must be between 1 and " + (perWindow - 1) + ", got " + burst);
        }
        this.capacity = burst;
        this.refillPerNano = (double) (perWindow - burst) / window.toNanos();
        this.clock = clock;
        this.tokens = burst;
        this.updated = clock.instant();
    }

    /** Takes one token and returns how long to wait before acting on it (zero when one was available). */
    public synchronized Duration reserve() {
        Instant now = clock.instant();
        long sinceNanos = Duration.between(updated, now).toNanos();
        if (sinceNanos > 0) {
            tokens = Math.min(capacity, tokens + sinceNanos * refillPerNano);
            updated = now;
        }
        tokens -= 1;
        if (tokens >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(-tokens / refillPerNano));
    }
}
