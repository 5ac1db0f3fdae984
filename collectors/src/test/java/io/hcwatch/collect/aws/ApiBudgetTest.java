package io.hcwatch.collect.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ApiBudgetTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final List<Long> sentAt = new ArrayList<>();

    private ApiBudget budget(double perSecond, int burst) {
        return new ApiBudget(perSecond, burst, now::get, now::addAndGet);
    }

    private void send(ApiBudget b, int n) throws InterruptedException {
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
        ApiBudget b = budget(2, 2);
        now.addAndGet(60_000_000_000L);
        send(b, 4);

        assertThat(sentAt.get(1)).isEqualTo(sentAt.get(0));
        assertThat(sentAt.get(3) - sentAt.get(0)).isEqualTo(1_000_000_000L);
    }

    @Test
    void aThrottlePauseHoldsEveryRequestUntilItEnds() throws InterruptedException {
        ApiBudget b = budget(10, 1);
        send(b, 1);
        b.pause(Duration.ofSeconds(3));
        send(b, 2);

        assertThat(sentAt.get(1) - sentAt.get(0)).isEqualTo(3_000_000_000L);
        assertThat(sentAt.get(2) - sentAt.get(1)).isEqualTo(100_000_000L);
    }
}
