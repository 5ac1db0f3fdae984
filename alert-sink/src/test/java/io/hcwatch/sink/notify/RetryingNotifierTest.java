package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.retry.Sleeper;
import io.hcwatch.sink.Alerts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RetryingNotifierTest {

    private static final DeliveryResult UNAVAILABLE = DeliveryResult.retryable("pagerduty_503", "5xx", "HTTP 503");
    private static final DeliveryResult THROTTLED = DeliveryResult.retryable("pagerduty_429", "429", "HTTP 429");
    private static final DeliveryResult UNREACHABLE = DeliveryResult.retryable("pagerduty_network", "network",
            "ConnectException: connection refused");
    private static final Alert ALERT = Alerts.firing("prod-web-tg");
    private static final Instant START = Instant.parse("2026-03-03T00:00:00Z");

    private final ManualClock clock = new ManualClock(START);
    private final RecordingSleeper sleeper = new RecordingSleeper(clock);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final BlockedDeliveries blocked = new BlockedDeliveries(clock);

    private RetryingNotifier retrying(Notifier delegate, Duration initial, Duration max) {
        return new RetryingNotifier(delegate, new ExponentialBackoff(initial, max), new DeliveryMetrics(registry), blocked,
                sleeper, () -> 1.0);
    }

    /** A receiver named pagerduty that answers each attempt with {@code answer}. */
    private static Notifier pagerDuty(Function<Page, DeliveryResult> answer) {
        return new Notifier() {
            @Override
            public String name() {
                return "pagerduty";
            }

            @Override
            public DeliveryResult deliver(Page page) {
                return answer.apply(page);
            }
        };
    }

    private double retries(String statusClass) {
        return registry.get(DeliveryMetrics.RETRIES).tag("status_class", statusClass).counter().count();
    }

    @Test
    void retriesUntilDeliveredWithWaitsThatDoubleUpToTheCap() throws Exception {
        ScriptedNotifier delegate = new ScriptedNotifier(UNAVAILABLE, THROTTLED, UNAVAILABLE, UNAVAILABLE, UNAVAILABLE);

        DeliveryResult result = retrying(delegate, Duration.ofSeconds(1), Duration.ofSeconds(5)).deliver(Page.of(ALERT));

        assertThat(result).isEqualTo(DeliveryResult.delivered());
        assertThat(delegate.calls()).isEqualTo(6);
        assertThat(sleeper.sleeps()).containsExactly(
                Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(retries("5xx")).isEqualTo(4);
        assertThat(retries("429")).isEqualTo(1);
    }

    @Test
    void aThirtyMinuteOutageIsWaitedOutAndTheAlertDeliveredAfterIt() throws Exception {
        Instant back = START.plus(Duration.ofMinutes(30));
        List<Duration> blockedFor = new ArrayList<>();
        Notifier outage = pagerDuty(alert -> {
            blockedFor.add(blocked.longest("pagerduty"));
            long minute = Duration.between(START, clock.instant()).toMinutes();
            if (!clock.instant().isBefore(back)) {
                return DeliveryResult.delivered();
            }
            return minute < 10 ? UNREACHABLE : minute < 20 ? UNAVAILABLE : THROTTLED;
        });

        DeliveryResult result = retrying(outage, Duration.ofSeconds(1), Duration.ofSeconds(60)).deliver(Page.of(ALERT));

        assertThat(result).isEqualTo(DeliveryResult.delivered());
        assertThat(clock.instant()).isBetween(back, back.plus(Duration.ofSeconds(60)));
        assertThat(sleeper.sleeps()).allSatisfy(wait -> assertThat(wait).isLessThanOrEqualTo(Duration.ofSeconds(60)));
        assertThat(retries("network")).isPositive();
        assertThat(retries("5xx")).isPositive();
        assertThat(retries("429")).isPositive();
        assertThat(blockedFor.get(0)).as("not blocked before the first failure").isZero();
        assertThat(blockedFor.get(blockedFor.size() - 1)).as("blocked since the first failure")
                .isEqualTo(Duration.between(START, clock.instant()));
        assertThat(blocked.longest("pagerduty")).as("released once delivered").isZero();
        assertThat(blocked.describe()).isEmpty();
    }

    @Test
    void whileRetryingTheDeliveryCountsAsBlockedWithItsLastFailure() throws Exception {
        List<String> seen = new ArrayList<>();
        ScriptedNotifier script = new ScriptedNotifier(UNAVAILABLE, THROTTLED);
        Notifier delegate = pagerDuty(alert -> {
            seen.add(blocked.count("pagerduty", "5xx") + "x5xx " + blocked.count("pagerduty", "429") + "x429");
            return script.deliver(alert);
        });

        retrying(delegate, Duration.ofSeconds(1), Duration.ofSeconds(1)).deliver(Page.of(ALERT));

        assertThat(seen).containsExactly("0x5xx 0x429", "1x5xx 0x429", "0x5xx 1x429");
        assertThat(blocked.count("pagerduty", "429")).isZero();
    }

    @Test
    void neverRetriesAPermanentFailure() throws Exception {
        DeliveryResult badRequest = DeliveryResult.permanent("pagerduty_400", "4xx", "HTTP 400: invalid event");
        ScriptedNotifier delegate = new ScriptedNotifier(badRequest);

        DeliveryResult result = retrying(delegate, Duration.ofSeconds(1), Duration.ofSeconds(1)).deliver(Page.of(ALERT));

        assertThat(result).isSameAs(badRequest);
        assertThat(delegate.calls()).isEqualTo(1);
        assertThat(sleeper.sleeps()).isEmpty();
    }

    @Test
    void aRefusalAfterRetriesEndsTheWaitAndIsReturnedAsIs() throws Exception {
        DeliveryResult forbidden = DeliveryResult.permanent("pagerduty_403", "4xx", "HTTP 403");
        ScriptedNotifier delegate = new ScriptedNotifier(UNAVAILABLE, UNAVAILABLE, forbidden);

        DeliveryResult result = retrying(delegate, Duration.ofSeconds(1), Duration.ofSeconds(1)).deliver(Page.of(ALERT));

        assertThat(result).isSameAs(forbidden);
        assertThat(delegate.calls()).isEqualTo(3);
        assertThat(blocked.describe()).isEmpty();
    }

    @Test
    void anInterruptDuringTheWaitAbandonsTheAlertAndItsBlock() {
        Sleeper interrupted = d -> {
            throw new InterruptedException("shutting down");
        };
        RetryingNotifier notifier = new RetryingNotifier(new ScriptedNotifier(UNAVAILABLE),
                new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)),
                new DeliveryMetrics(registry), blocked, interrupted, () -> 0.5);

        assertThatThrownBy(() -> notifier.deliver(Page.of(ALERT))).isInstanceOf(InterruptedException.class);
        assertThat(blocked.describe()).isEmpty();
    }
}
