package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

    @Test
    void waitsDoubleFromTheInitialDelayUpToTheCap() {
        Backoff middle = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.5);

        assertThat(java.util.stream.IntStream.rangeClosed(1, 7).mapToObj(middle::delay).map(Duration::toMillis))
                .containsExactly(750L, 1_500L, 3_000L, 6_000L, 12_000L, 22_500L, 22_500L);
    }

    @Test
    void jitterTakesUpToHalfOff() {
        Backoff most = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.0);

        assertThat(most.delay(3)).isEqualTo(Duration.ofSeconds(2));
        assertThat(most.delay(100)).isEqualTo(Duration.ofSeconds(15));
    }
}
