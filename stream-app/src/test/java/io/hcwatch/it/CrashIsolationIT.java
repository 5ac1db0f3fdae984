package io.hcwatch.it;

import static io.hcwatch.it.IncidentFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.topology.Stages;
import io.hcwatch.topology.ThrowsOnOneGroup;
import io.hcwatch.topology.TopologyFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A detector that throws on one target group, in the live app on a real broker: the other target
 * groups fire and resolve, the bad one is in the DLQ with its stage and exception, and no stream
 * thread is ever replaced (the uncaught-exception handler never runs, the threads keep their names).
 */
class CrashIsolationIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String BAD = "tg-1";

    @Test
    void oneTargetGroupsFailingDetectorIsDeadLetteredWhileTheOthersAlertOnTheSameThreads() throws Exception {
        IncidentFixture fixture = new IncidentFixture(3);
        try (LiveHarness h = new LiveHarness(3);
             LiveHarness.TopicReader<Alert> alerts = h.alerts();
             LiveHarness.TopicReader<DeadLetter> dead = h.deadLetters()) {
            Map<String, String> cfg = new HashMap<>();
            cfg.put("application.id", "hcwatch-crash-isolation");
            cfg.put("detect.alert.cool-down", "20s");
            cfg.put("streams.num.stream.threads", "2");
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (StreamApp app = new StreamApp(StreamAppConfig.load(h.appConfig("crash-isolation", cfg)), registry,
                    config -> TopologyFactory.build(new Stages(config, real -> new ThrowsOnOneGroup(real, BAD))))) {
                app.start();
                Awaitility.await().atMost(WAIT).until(app::isReady);
                Set<String> threadsAtStart = streamThreads();
                assertThat(threadsAtStart).hasSize(2);

                h.produce(fixture.healthy(T0, T0 + 60_000));
                h.produce(fixture.failing(T0 + 60_000, T0 + 100_000));
                h.produce(fixture.healthy(T0 + 100_000, T0 + 200_000));
                Awaitility.await().atMost(WAIT).until(() -> {
                    List<Alert> seen = alerts.poll();
                    return resolved(seen, "tg-0") && resolved(seen, "tg-2") && !dead.poll().isEmpty();
                });

                assertThat(alerts.poll()).extracting(Alert::getDedupKey).doesNotContain("correlated_failure/" + BAD);
                assertThat(dead.poll()).allSatisfy(d -> {
                    assertThat(d.getReason()).isEqualTo("processing_error");
                    assertThat(d.getStage()).isEqualTo("monitor-fleet");
                    assertThat(d.getKey()).isEqualTo(BAD);
                    assertThat(d.getExceptionClass()).isEqualTo(IllegalStateException.class.getName());
                    assertThat(d.getExceptionStack()).contains(ThrowsOnOneGroup.class.getName());
                });
                // Dead letters keep coming while the bad group gets records, and each is counted before it is
                // sent: read the topic first, then the counter, or the counter is the older figure.
                int deadLettered = dead.poll().size();
                assertThat(registry.find("hcwatch.processing.errors").tag("stage", "monitor-fleet").counter().count())
                        .isGreaterThanOrEqualTo(deadLettered);
                assertThat(registry.find(StreamApp.THREADS_REPLACED).counter().count()).isZero();
                assertThat(streamThreads()).isEqualTo(threadsAtStart);
                assertThat(app.isReady()).isTrue();
            }
        }
    }

    private static boolean resolved(List<Alert> alerts, String group) {
        return alerts.stream().anyMatch(a -> a.getDedupKey().equals("correlated_failure/" + group)
                && a.getStatus() == AlertStatus.resolved);
    }

    /** The names of this JVM's live Kafka Streams threads: a replaced thread comes back under a new number. */
    private static Set<String> streamThreads() {
        Set<String> names = new TreeSet<>();
        Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.matches(".*-StreamThread-\\d+")).forEach(names::add);
        return names;
    }
}
