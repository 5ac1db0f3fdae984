package io.hcwatch.it;

import static io.hcwatch.it.IncidentFixture.T0;
import static io.hcwatch.it.ReliabilityRuns.FLEETS;
import static io.hcwatch.it.ReliabilityRuns.WAIT;
import static io.hcwatch.it.ReliabilityRuns.all;
import static io.hcwatch.it.ReliabilityRuns.guarantee;
import static io.hcwatch.it.ReliabilityRuns.incident;
import static io.hcwatch.it.ReliabilityRuns.summarize;
import static io.hcwatch.it.ReliabilityRuns.tail;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * hcwatch on a real broker killed mid-incident (SIGKILL) and restarted from its changelogs, under each
 * processing guarantee: one episode per alert and one incident per scope across the crash. ScaleOutIT
 * runs more threads and instances, DisorderIT hostile input and disorder.
 */class ReliabilityIT {

    private final IncidentFixture fixture = new IncidentFixture(FLEETS);

    @ParameterizedTest(name = "processing.guarantee={0}")
    @ValueSource(strings = {"at_least_once", "exactly_once_v2"})
    void killedMidIncidentTheRestartedAppRestoresStateFiresOncePerEpisodeAndResolves(String g) throws Exception {
        try (LiveHarness h = new LiveHarness(3);
             LiveHarness.TopicReader<Alert> alerts = h.alerts();
             LiveHarness.TopicReader<DeadLetter> dead = h.deadLetters()) {
            // a failure before the kill must not leave the first app running
            try (StreamAppProcess first = StreamAppProcess.start(h.appConfig("first", guarantee(g)))) {
                h.produce(fixture.healthy(T0, T0 + 60_000));
                h.produce(fixture.failing(T0 + 60_000, T0 + 100_000));
                Awaitility.await().atMost(WAIT).until(() -> all(alerts.poll(), AlertStatus.firing, FLEETS));
                first.kill();
                Instant killedAt = Instant.now();
                assertThat(first.isAlive()).isFalse();

                try (StreamAppProcess second = StreamAppProcess.start(h.appConfig("second", guarantee(g)))) {
                    h.produce(fixture.healthy(T0 + 100_000, T0 + 200_000));
                    try {
                        Awaitility.await().atMost(WAIT).until(() -> all(alerts.poll(), AlertStatus.resolved, FLEETS));
                    } catch (org.awaitility.core.ConditionTimeoutException e) {
                        String log = second.log();
                        throw new AssertionError("alerts so far: " + summarize(alerts.poll()) + "; in full: "
                                + alerts.poll().stream().map(a -> a.getDedupKey() + " " + a.getStatus() + " " + a.getSeverity()
                                        + " " + a.getSummary()).toList() + "; group progress: " + h.progress("hcwatch-it")
                                + "; " + h.changelogDigest("fleet-state") + "; " + h.clockDigest("fleet-state-clock", T0)
                                + "; first app killed at " + killedAt + ", its log (tail): " + tail(first.log()) + "; restarted app's log (tail): "
                                + tail(log), e);
                    }
                    List<Alert> seen = alerts.poll();
                    for (int f = 0; f < FLEETS; f++) {
                        String key = "correlated_failure/tg-" + f;
                        List<Alert> ofKey = seen.stream().filter(a -> a.getDedupKey().equals(key)).toList();
                        Set<String> episodes = ofKey.stream().map(Alert::getAlertId).collect(Collectors.toSet());
                        assertThat(episodes).as("one episode for %s across the crash: %s", key, ofKey).hasSize(1);
                        assertThat(ofKey.get(ofKey.size() - 1).getStatus()).isEqualTo(AlertStatus.resolved);
                        assertThat(ofKey.stream().filter(a -> a.getStatus() == AlertStatus.resolved)).hasSize(1);
                        if (g.equals("exactly_once_v2")) {
                            assertThat(ofKey).as("exactly once: no notification twice").doesNotHaveDuplicates();
                        }
                    }
                    try (LiveHarness.TopicReader<Incident> incidents = h.incidents()) {
                        Awaitility.await().atMost(WAIT).until(() -> IncidentOutcomes.caughtUp(seen, incidents.poll()));
                        for (int f = 0; f < FLEETS; f++) {
                            String key = "target_group/tg-" + f;
                            List<Incident> ofKey = incidents.poll().stream().filter(i -> i.getIncidentKey().equals(key)).toList();
                            assertThat(ofKey.stream().map(Incident::getIncidentId).distinct()).as("one incident for %s across the crash", key)
                                    .hasSize(1);
                            assertThat(ofKey.get(ofKey.size() - 1).getChange()).isEqualTo(io.hcwatch.avro.v1.IncidentChange.resolved);
                        }
                    }
                    assertThat(dead.poll()).isEmpty();
                    assertThat(second.isAlive()).as(second.log()).isTrue();
                }
            }
        }
    }
}
