package io.hcwatch.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RateLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Long> sentAt = new ArrayList<>();

    private RateLimiter budget(double perSecond, int burst) {
        return new RateLimiter(perSecond, burst, now::get, d -> now.addAndGet(d.toNanos()));
    }

    private void send(RateLimiter b, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            b.acquire();
            sentAt.add(now.get());
        }
    }

    @Test
    void requestsAreSpacedEvenlyAtTheConfiguredRate() throws InterruptedException {
        send(budget(2, 1), 11);

        assertThat(Duration.ofNanos(sentAt.get(10) - sentAt.get(0))).isEqualTo(Duration.ofSeconds(5));
        for (int i = 1; i < sentAt.size(); i++) {
            assertThat(sentAt.get(i) - sentAt.get(i - 1)).isEqualTo(500_000_000L);
        }
    }

    @Test
    void aBurstGoesAtOnceAndTheRestFollowsAtTheRate() throws InterruptedException {
        send(budget(2, 4), 6);

        assertThat(sentAt.subList(0, 4)).containsOnly(sentAt.get(0));
        assertThat(sentAt.get(4) - sentAt.get(0)).isEqualTo(500_000_000L);
        assertThat(sentAt.get(5) - sentAt.get(0)).isEqualTo(1_000_000_000L);
    }

    @Test
    void anIdleBudgetDoesNotSaveUpMoreThanItsBurst() throws InterruptedException {
        RateLimiter b = budget(2, 2);
        now.addAndGet(60_000_000_000L);
        send(b, 4);

        assertThat(sentAt.get(1)).isEqualTo(sentAt.get(0));
        assertThat(sentAt.get(3) - sentAt.get(0)).isEqualTo(1_000_000_000L);
    }

    @Test
    void aThrottlePauseHoldsEveryRequestUntilItEnds() throws InterruptedException {
        RateLimiter b = budget(10, 1);
        send(b, 1);
        b.pause(Duration.ofSeconds(3));
        send(b, 2);

        assertThat(sentAt.get(1) - sentAt.get(0)).isEqualTo(3_000_000_000L);
        assertThat(sentAt.get(2) - sentAt.get(1)).isEqualTo(100_000_000L);
    }

    /**
     * The budget's promise as ELBv2's bucket sees it: a caller that always wants more than the
     * budget gets exactly {@code 60 × rate + burst − 1} requests into its busiest minute (the burst
     * at the start, then one every 1/rate), never more.
     */
    @ParameterizedTest(name = "{0}/s, burst {1}: at most {2} in any 60 s")
    @CsvSource(delimiter = '|', textBlock = """
            # rate | burst | busiest minute
            2      | 1     | 120
            2      | 4     | 123
            0.5    | 1     | 30
            6      | 1     | 360
            """)
    void aCallerThatAlwaysWantsMoreGetsTheRateAMinutePlusTheBurstLessOne(double rate, int burst, int busiest)
            throws InterruptedException {
        send(budget(rate, burst), (int) (5 * 60 * rate));

        assertThat(busiestMinute()).isEqualTo(busiest);
    }

    /**
     * Callers that come and go at random (idle spells that refill the burst, bursts of demand,
     * throttle pauses of up to 5 s) never get more than {@code 60 × rate + burst − 1} into any
     * 60 s window either: idling saves up no more than the burst, and a pause's end releases no
     * more than it. Seeded, so every run draws the same arrivals.
     */
    @ParameterizedTest(name = "{0}/s, burst {1}, seed {3}: at most {2} in any 60 s")
    @CsvSource(delimiter = '|', textBlock = """
            # rate | burst | at most | seed
            2      | 1     | 120     | 1
            2      | 1     | 120     | 2
            2      | 4     | 123     | 3
            6      | 10    | 369     | 4
            """)
    void callersComingAndGoingNeverGetMoreIntoAMinute(double rate, int burst, int atMost, long seed) throws InterruptedException {
        RateLimiter b = budget(rate, burst);
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            int draw = random.nextInt(100);
            if (draw < 5) {
                now.addAndGet(random.nextInt(30_000) * 1_000_000L);
            } else if (draw < 8) {
                b.pause(Duration.ofMillis(random.nextInt(5_000)));
            } else if (draw < 50) {
                now.addAndGet(random.nextInt(1_000) * 1_000_000L);
            }
            send(b, 1);
        }

        assertThat(busiestMinute()).isLessThanOrEqualTo(atMost);
    }

    /** The most requests sent in any window of 60 s (from one send to just before 60 s after it). */
    private int busiestMinute() {
        int most = 0;
        int from = 0;
        for (int to = 0; to < sentAt.size(); to++) {
            while (sentAt.get(to) - sentAt.get(from) >= 60_000_000_000L) {
                from++;
            }
            most = Math.max(most, to - from + 1);
        }
        return most;
    }
}
