package io.hcwatch.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.topology.HaproxyLines;
import io.hcwatch.topology.Source;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Live, on the in-process broker, with HAProxy logs produced as they happen (event time = now):
 * the producer of one host stops while the other goes on, and telemetry_gap fires for it, scoped
 * by source and host; it resolves when that producer sends again. Then every producer stops, and
 * with no input at all the feed monitor's clock follows the wall clock (silence): the remaining
 * host's gap fires too.
 */
class TelemetryGapIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private final Set<String> sending = ConcurrentHashMap.newKeySet();

    @Test
    void aStoppedProducerRaisesTelemetryGapForItsHostUntilItSendsAgain() throws Exception {
        ScheduledExecutorService producers = Executors.newSingleThreadScheduledExecutor();
        try (LiveHarness h = new LiveHarness(2);
             LiveHarness.TopicReader<Alert> alerts = h.alerts()) {
            Map<String, String> cfg = Map.of(
                    "application.id", "hcwatch-telemetry-gap",
                    // a short normal delay keeps the test short; the alert must follow it, not a built-in time
                    "detect.gap.after", "haproxy=5s",
                    "detect.alert.cool-down", "0s");
            try (StreamApp app = new StreamApp(StreamAppConfig.load(h.appConfig("telemetry-gap", cfg)))) {
                app.start();
                Awaitility.await().atMost(WAIT).until(app::isReady);
                sending.addAll(List.of("lb1", "lb2"));
                producers.scheduleAtFixedRate(() -> produce(h), 0, 100, TimeUnit.MILLISECONDS);
                Awaitility.await().atMost(WAIT).until(() -> parsedLines(app) > 100);

                sending.remove("lb2");
                Awaitility.await().atMost(WAIT).until(() -> has(alerts.poll(), "lb2", AlertStatus.firing));
                assertThat(alerts.poll()).filteredOn(a -> a.getType().equals("telemetry_gap"))
                        .as("lb1 kept sending").allSatisfy(a -> assertThat(a.getScope().getHost()).isEqualTo("lb2"))
                        .allSatisfy(a -> assertThat(a.getDetails()).containsEntry("source", "haproxy"));

                sending.add("lb2");
                Awaitility.await().atMost(WAIT).until(() -> has(alerts.poll(), "lb2", AlertStatus.resolved));

                sending.clear();
                Awaitility.await().atMost(WAIT).until(() -> has(alerts.poll(), "lb1", AlertStatus.firing));
                assertThat(app.isReady()).isTrue();
            }
        } finally {
            producers.shutdownNow();
            producers.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private void produce(LiveHarness h) {
        Instant now = Instant.now();
        for (String host : sending) {
            h.produceRaw(Source.HAPROXY, HaproxyLines.request(host, now), now.toEpochMilli());
        }
        h.flush();
    }

    private static double parsedLines(StreamApp app) {
        var c = app.registry().find("hcwatch.records").tags("source", "haproxy", "outcome", "parsed").counter();
        return c == null ? 0 : c.count();
    }

    private static boolean has(List<Alert> alerts, String host, AlertStatus status) {
        return alerts.stream().anyMatch(a -> a.getType().equals("telemetry_gap") && host.equals(a.getScope().getHost())
                && a.getStatus() == status);
    }
}
