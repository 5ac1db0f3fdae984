package io.hcwatch.sink.notify.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.sink.Alerts;
import io.hcwatch.sink.notify.BlockedDeliveries;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.DeliveryResult;
import io.hcwatch.sink.notify.ManualClock;
import io.hcwatch.sink.notify.Page;
import io.hcwatch.sink.notify.RecordingSleeper;
import io.hcwatch.sink.notify.RetryingNotifier;
import io.hcwatch.testsupport.ReservedPort;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PagerDutyNotifierTest {

    private static final RoutingKey KEY = new RoutingKey("0123456789abcdef0123456789abcdef", "PAGERDUTY_ROUTING_KEY");

    private final PagerDutyStandIn pagerDuty = PagerDutyStandIn.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T00:00:00Z"));
    private final RecordingSleeper sleeper = new RecordingSleeper(clock);

    @AfterEach
    void stop() {
        pagerDuty.close();
    }

    private PagerDutyNotifier notifier(String endpoint, int perMinute, int burst) {
        return new PagerDutyNotifier(new PagerDutyNotifier.Settings(endpoint, "hcwatch", Duration.ofSeconds(5), perMinute, burst),
                Router.single(KEY), clock, sleeper);
    }

    @Test
    void postsATriggerThatPagerDutyAccepts() throws Exception {
        DeliveryResult result = notifier(pagerDuty.endpoint(), 120, 20).deliver(Page.of(Alerts.firing("prod-web-tg")));

        assertThat(result).isEqualTo(DeliveryResult.delivered());
        assertThat(pagerDuty.violations()).isEmpty();
        assertThat(pagerDuty.accepted()).singleElement()
                .satisfies(e -> assertThat(e.path("dedup_key").asText()).isEqualTo("correlated_failure/prod-web-tg"));
    }

    @ParameterizedTest(name = "PagerDuty answers {0}: {1}")
    @CsvSource({
            "429, retry",
            "500, retry",
            "503, retry",
            "400, dead_letter",
            "403, dead_letter",
            "413, dead_letter"})
    void mapsWhatPagerDutyAnswersToDeliveredRetryOrDeadLetter(int status, String expected) throws Exception {
        pagerDuty.thenRespond(status, 1);

        DeliveryResult result = notifier(pagerDuty.endpoint(), 120, 20).deliver(Page.of(Alerts.firing("tg")));

        assertThat(result).isInstanceOf(expected.equals("retry") ? DeliveryResult.Retryable.class : DeliveryResult.Permanent.class);
        assertThat(result.toString()).contains("pagerduty_" + status).contains("HTTP " + status);
        assertThat(pagerDuty.accepted()).isEmpty();
    }

    @Test
    void keepsTheResponseBodyOfARejectedEvent() throws Exception {
        pagerDuty.respondWhen(e -> true, 400, "{\"status\":\"invalid event\",\"errors\":[\"'payload.summary' is missing\"]}");

        DeliveryResult result = notifier(pagerDuty.endpoint(), 120, 20).deliver(Page.of(Alerts.firing("tg")));

        assertThat(result).isEqualTo(DeliveryResult.permanent("pagerduty_400", "4xx",
                "HTTP 400: {\"status\":\"invalid event\",\"errors\":[\"'payload.summary' is missing\"]}"));
    }

    @Test
    void anUnreachableEndpointIsANetworkErrorWorthRetrying() throws Exception {
        int closedPort = ReservedPort.closed();

        DeliveryResult result = notifier("http://127.0.0.1:" + closedPort, 120, 20).deliver(Page.of(Alerts.firing("tg")));

        assertThat(result).isInstanceOf(DeliveryResult.Retryable.class);
        assertThat(((DeliveryResult.Retryable) result).reason()).isEqualTo("pagerduty_network");
    }

    @Test
    void holdsEachRoutingKeyUnderItsRateLimit() throws Exception {
        PagerDutyNotifier notifier = notifier(pagerDuty.endpoint(), 12, 2);

        for (int i = 0; i < 5; i++) {
            assertThat(notifier.deliver(Page.of(Alerts.firing("tg-" + i)))).isEqualTo(DeliveryResult.delivered());
        }

        // 2 at once, then 10 per minute: one every 6 s, the waiting time growing with the queue
        assertThat(sleeper.sleeps()).containsExactly(Duration.ofSeconds(6), Duration.ofSeconds(6), Duration.ofSeconds(6));
        assertThat(pagerDuty.accepted()).hasSize(5);
    }

    @Test
    void deliversEveryAlertOnceInOrderPerKeyThroughA503And429Storm() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RetryingNotifier retrying = new RetryingNotifier(notifier(pagerDuty.endpoint(), 120, 20),
                new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30)),
                new DeliveryMetrics(registry), new BlockedDeliveries(clock), sleeper, () -> 0.5);
        pagerDuty.thenRespond(503, 3).thenRespond(429, 2).thenRespond(502, 1);
        List<Alert> sent = new ArrayList<>();
        for (String group : List.of("tg-a", "tg-b", "tg-c")) {
            sent.add(Alerts.firing(group));
        }
        sent.add(Alerts.resolved("tg-b"));
        sent.add(Alerts.resolved("tg-a"));

        for (Alert alert : sent) {
            assertThat(retrying.deliver(Page.of(alert))).isEqualTo(DeliveryResult.delivered());
        }

        List<String> received = pagerDuty.accepted().stream()
                .map(e -> e.path("event_action").asText() + " " + e.path("dedup_key").asText()).toList();
        assertThat(received).containsExactly(
                "trigger correlated_failure/tg-a", "trigger correlated_failure/tg-b", "trigger correlated_failure/tg-c",
                "resolve correlated_failure/tg-b", "resolve correlated_failure/tg-a");
        Map<String, List<String>> perKey = pagerDuty.accepted().stream().collect(Collectors.groupingBy(
                e -> e.path("dedup_key").asText(), Collectors.mapping(e -> e.path("event_action").asText(), Collectors.toList())));
        assertThat(perKey.get("correlated_failure/tg-a")).containsExactly("trigger", "resolve");
        assertThat(pagerDuty.statusesSent()).containsExactly(503, 503, 503, 429, 429, 502, 202, 202, 202, 202, 202);
        assertThat(registry.get("hcwatch.sink.delivery.retries").tag("status_class", "5xx").counter().count()).isEqualTo(4);
        assertThat(registry.get("hcwatch.sink.delivery.retries").tag("status_class", "429").counter().count()).isEqualTo(2);
        assertThat(pagerDuty.violations()).isEmpty();
    }
}
