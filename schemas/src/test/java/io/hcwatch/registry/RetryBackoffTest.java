package io.hcwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {

    private final RetryBackoff backoff = new RetryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1));

    @Test
    void theCeilingDoublesPerRetryUpToTheMaximum() {
        assertThat(backoff.ceiling(0)).isEqualTo(100);
        assertThat(backoff.ceiling(1)).isEqualTo(200);
        assertThat(backoff.ceiling(3)).isEqualTo(800);
        assertThat(backoff.ceiling(4)).isEqualTo(1000);
        assertThat(backoff.ceiling(Integer.MAX_VALUE)).isEqualTo(1000);
    }

    @RepeatedTest(20)
    void eachDelayIsJitteredWithinTheUpperHalfOfItsCeiling() {
        for (int retry = 0; retry < 6; retry++) {
            long ceiling = backoff.ceiling(retry);
            assertThat(backoff.delay(retry).toMillis()).isBetween(ceiling / 2, ceiling);
        }
    }
}
