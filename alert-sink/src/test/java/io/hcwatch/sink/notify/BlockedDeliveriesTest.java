package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BlockedDeliveriesTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T00:00:00Z"));
    private final BlockedDeliveries blocked = new BlockedDeliveries(clock);

    @Test
    void nothingHeldReadsAsZeroAndSaysNothing() {
        assertThat(blocked.count("pagerduty", "5xx")).isZero();
        assertThat(blocked.longest("pagerduty")).isZero();
        assertThat(blocked.describe()).isEmpty();
    }

    @Test
    void twoPartitionsHeldByAnOutageCountByLastFailureAndAgeFromTheOldestFirstFailure() {
        BlockedDeliveries.Blocked first = blocked.start("pagerduty", "5xx");
        clock.advance(Duration.ofMinutes(5));
        BlockedDeliveries.Blocked second = blocked.start("pagerduty", "network");
        clock.advance(Duration.ofMinutes(25));
        first.failedAgain("429");

        assertThat(blocked.count("pagerduty", "429")).isOne();
        assertThat(blocked.count("pagerduty", "network")).isOne();
        assertThat(blocked.count("pagerduty", "5xx")).isZero();
        assertThat(blocked.longest("pagerduty")).isEqualTo(Duration.ofMinutes(30));
        assertThat(blocked.longest("stdout")).isZero();
        assertThat(blocked.describe()).containsExactly(
                "pagerduty: 2 partition(s) waiting for 1800 s on retryable failures (longest held, last failure 429);"
                        + " retrying, nothing is dead-lettered");

        first.close();
        assertThat(blocked.longest("pagerduty")).isEqualTo(Duration.ofMinutes(25));
        second.close();
        assertThat(blocked.describe()).isEmpty();
    }
}
