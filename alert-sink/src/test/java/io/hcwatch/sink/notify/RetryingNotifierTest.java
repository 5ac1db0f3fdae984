package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.sink.Alerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryingNotifierTest {

    private static final DeliveryResult UNAVAILABLE = DeliveryResult.retryable("pagerduty_503", "5xx", "HTTP 503");
    private static final DeliveryResult THROTTLED = DeliveryResult.retryable("pagerduty_429", "429", "HTTP 429");
    private static final Alert ALERT = Alerts.firing("prod-web-tg");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T00:00:00Z"));
    private final RecordingSleeper sleeper = new RecordingSleeper(clock);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private RetryingNotifier retrying(Notifier delegate, RetryPolicy policy, double jitter) {
        return new RetryingNotifier(delegate, policy, new DeliveryMetrics(registry), clock, sleeper, () -> jitter);
    }

    @Test
    void retriesUntilDeliveredWithWaitsThatDoubleUpToTheCap() throws Exception {
        ScriptedNotifier delegate = new ScriptedNotifier(UNAVAILABLE, THROTTLED, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE);
        RetryPolicy policy = new RetryPolicy(0, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));

        DeliveryResult result = retrying(delegate, policy, 1.0).deliver(ALERT);

        assertThat(result).isEqualTo(DeliveryResult.delivered());
        assertThat(delegate.calls()).isEqualTo(6);
        assertThat(sleeper.sleeps()).containsExactly(
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(registry.get("hcwatch.sink.delivery.retries").tag("status_class", "5xx").counter().count()).isEqualTo(4);
        assertThat(registry.get("hcwatch.sink.delivery.retries").tag("status_class", "429").counter().count()).isEqualTo(1);
    }

    @Test
    void jitterKeepsEachWaitBetweenHalfAndAllOfItsCeiling() {
        RetryPolicy policy = new RetryPolicy(0, Duration.ZERO, Duration.ofSeconds(2), Duration.ofSeconds(60));

        assertThat(policy.backoff(3, () -> 0.0)).isEqualTo(Duration.ofSeconds(4));
        assertThat(policy.backoff(3, () -> 0.5)).isEqualTo(Duration.ofSeconds(6));
        assertThat(policy.backoff(3, () -> 0.999999)).isBetween(Duration.ofMillis(7999), Duration.ofSeconds(8));
        assertThat(policy.backoff(40, () -> 1.0)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void neverRetriesAPermanentFailure() throws Exception {
        DeliveryResult badRequest = DeliveryResult.permanent("pagerduty_400", "4xx", "HTTP 400: invalid event");
        ScriptedNotifier delegate = new ScriptedNotifier(badRequest);

        DeliveryResult result = retrying(delegate, new RetryPolicy(10, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)), 0.5)
                .deliver(ALERT);

        assertThat(result).isSameAs(badRequest);
        assertThat(delegate.calls()).isEqualTo(1);
        assertThat(sleeper.sleeps()).isEmpty();
    }

    @Test
    void givesUpAfterTheAttemptLimitWithAPermanentResultNamingTheLastError() throws Exception {
        ScriptedNotifier delegate = new ScriptedNotifier(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE);

        DeliveryResult result = retrying(delegate, new RetryPolicy(3, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)), 1.0)
                .deliver(ALERT);

        assertThat(delegate.calls()).isEqualTo(3);
        assertThat(result).isEqualTo(DeliveryResult.permanent("pagerduty_retries_exhausted", "5xx",
                "gave up after 3 attempts in 2s; last: HTTP 503"));
    }

    @Test
    void givesUpBeforeAWaitThatWouldPassTheTimeLimit() throws Exception {
        ScriptedNotifier delegate = new ScriptedNotifier(List.of(UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE)
                .toArray(DeliveryResult[]::new));
        RetryPolicy policy = new RetryPolicy(0, Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(60));

        DeliveryResult result = retrying(delegate, policy, 1.0).deliver(ALERT);

        // waits 1 + 2 + 4 = 7s; the next wait (8s) would end at 15s, past the 10s budget
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertThat(result).isInstanceOf(DeliveryResult.Permanent.class);
        assertThat(((DeliveryResult.Permanent) result).reason()).isEqualTo("pagerduty_retries_exhausted");
    }

    @Test
    void anInterruptDuringTheWaitAbandonsTheAlert() {
        Sleeper interrupted = d -> {
            throw new InterruptedException("shutting down");
        };
        RetryingNotifier notifier = new RetryingNotifier(new ScriptedNotifier(UNAVAILABLE),
                new RetryPolicy(0, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)),
                new DeliveryMetrics(registry), clock, interrupted, () -> 0.5);

        assertThatThrownBy(() -> notifier.deliver(ALERT)).isInstanceOf(InterruptedException.class);
    }

    @Test
    void rejectsAPolicyWhoseCapIsBelowItsFirstWait() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .hasMessageContaining("below initialBackoff");
    }
}
