package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.retry.RateLimiter;
import io.hcwatch.retry.Sleeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/** The sink's limit per routing key, as {@code PagerDutyNotifier} sets it: 120 events a minute, 20 at once. */
class PagerDutyRateLimitTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T00:00:00Z"));

    @Test
    void grantsTheBurstAtOnceThenSpacesTheRestAtTheSteadyRate() {
        RateLimiter bucket = RateLimiter.perWindow(120, 20, Duration.ofMinutes(1), clock, Sleeper.SYSTEM);

        for (int i = 0; i < 20; i++) {
            assertThat(bucket.reserve()).isZero();
        }
        // 100 more per minute: one every 600 ms, reservations queue up behind each other
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(600));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(1200));
        clock.advance(Duration.ofMillis(1200));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(600));
    }

    @Test
    void noSixtySecondWindowSeesMoreThanTheDocumentedLimitUnderConstantPressure() {
        RateLimiter bucket = RateLimiter.perWindow(120, 20, Duration.ofMinutes(1), clock, Sleeper.SYSTEM);
        RecordingSleeper sleeper = new RecordingSleeper(clock);
        Deque<Instant> sent = new ArrayDeque<>();
        int maxInWindow = 0;
        for (int i = 0; i < 1000; i++) {
            sleeper.sleep(bucket.reserve());
            Instant now = clock.instant();
            sent.addLast(now);
            while (!sent.peekFirst().isAfter(now.minus(Duration.ofMinutes(1)))) {
                sent.removeFirst();
            }
            maxInWindow = Math.max(maxInWindow, sent.size());
        }

        assertThat(maxInWindow).isLessThanOrEqualTo(120).isGreaterThanOrEqualTo(115);
    }

    @Test
    void refillsOnlyUpToTheBurstAfterAQuietSpell() {
        RateLimiter bucket = RateLimiter.perWindow(120, 20, Duration.ofMinutes(1), clock, Sleeper.SYSTEM);
        clock.advance(Duration.ofHours(1));

        for (int i = 0; i < 20; i++) {
            assertThat(bucket.reserve()).isZero();
        }
        assertThat(bucket.reserve()).isPositive();
    }

    @Test
    void rejectsABurstThatLeavesNoRoomForARefill() {
        assertThatThrownBy(() -> RateLimiter.perWindow(120, 120, Duration.ofMinutes(1), clock, Sleeper.SYSTEM)).hasMessageContaining("burst");
    }
}
