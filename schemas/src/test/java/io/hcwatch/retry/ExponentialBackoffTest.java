package io.hcwatch.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class ExponentialBackoffTest {

    private final ExponentialBackoff backoff = new ExponentialBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));

    @Test
    void theCeilingDoublesPerRetryUpToTheCap() {
        assertThat(backoff.ceiling(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(backoff.ceiling(2)).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.ceiling(4)).isEqualTo(Duration.ofMillis(800));
        assertThat(backoff.ceiling(5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void jitterKeepsEachWaitBetweenHalfAndAllOfItsCeiling() {
        ExponentialBackoff seconds = new ExponentialBackoff(Duration.ofSeconds(2), Duration.ofSeconds(60));

        assertThat(seconds.delay(3, () -> 0.0)).isEqualTo(Duration.ofSeconds(4));
        assertThat(seconds.delay(3, () -> 0.5)).isEqualTo(Duration.ofSeconds(6));
        assertThat(seconds.delay(3, () -> 0.999999)).isBetween(Duration.ofMillis(7999), Duration.ofSeconds(8));
        assertThat(seconds.delay(3, () -> 1.0)).isEqualTo(Duration.ofSeconds(8));
        assertThat(seconds.delay(40, () -> 1.0)).isEqualTo(Duration.ofSeconds(60));
    }

    @RepeatedTest(20)
    void randomDelaysStayInTheUpperHalfOfTheirCeiling() {
        for (int retry = 1; retry < 7; retry++) {
            Duration ceiling = backoff.ceiling(retry);
            assertThat(backoff.delay(retry)).isBetween(ceiling.dividedBy(2), ceiling);
        }
    }

    @Test
    void aCapBeyondWhatNanosecondsHoldDoesNotOverflow() {
        ExponentialBackoff endless = new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofDays(365L * 1000));

        assertThat(endless.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
        assertThat(endless.delay(Integer.MAX_VALUE, () -> 1.0)).isPositive();
    }

    @Test
    void refusesACapBelowTheFirstWaitAndANonPositiveFirstWait() {
        assertThatThrownBy(() -> new ExponentialBackoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .hasMessageContaining("below initial backoff");
        assertThatThrownBy(() -> new ExponentialBackoff(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("must be > 0");
    }
}
