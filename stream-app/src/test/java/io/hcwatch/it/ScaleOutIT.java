package io.hcwatch.it;

import static io.hcwatch.it.ReliabilityRuns.FLEETS;
import static io.hcwatch.it.ReliabilityRuns.all;
import static io.hcwatch.it.ReliabilityRuns.guarantee;
import static io.hcwatch.it.ReliabilityRuns.incident;
import static io.hcwatch.it.ReliabilityRuns.replay;
import static io.hcwatch.it.ReliabilityRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlertStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * hcwatch scaled out on a real broker: two instances raise what one raises, and two stream threads
 * or three instances on six partitions raise what replay of the same input raises, whichever
 * instance owns which partitions.
 */
class ScaleOutIT {

    @RegisterExtension
    static final BrokerPerClass BROKER = new BrokerPerClass();
    private final IncidentFixture fixture = new IncidentFixture(FLEETS);

    @ParameterizedTest(name = "processing.guarantee={0}")
    @ValueSource(strings = {"at_least_once", "exactly_once_v2"})
    void twoInstancesOnSixPartitionsRaiseTheSameAlertsAsOne(String g) throws Exception {
        List<Telemetry> input = incident(fixture);
        Map<String, List<String>> one;
        Map<String, List<String>> two;
        try (LiveHarness h = BROKER.harness(6)) {
            one = run(h, "one", 1, guarantee(g), input, all -> all(all, AlertStatus.resolved, FLEETS));
        }
        try (LiveHarness h = BROKER.harness(6)) {
            two = run(h, "two", 2, guarantee(g), input, all -> all(all, AlertStatus.resolved, FLEETS));
        }
        assertThat(two).isEqualTo(one);
        assertThat(one.keySet()).filteredOn(k -> k.startsWith("correlated_failure/")).hasSize(FLEETS);
    }

    @Test
    void twoStreamThreadsRaiseWhatReplayRaises() throws Exception {
        List<Telemetry> input = incident(fixture);
        try (LiveHarness h = BROKER.harness(6)) {
            assertThat(run(h, "threads", 1, Map.of("streams.num.stream.threads", "2"), input,
                    all -> all(all, AlertStatus.resolved, FLEETS))).isEqualTo(replay(input));
        }
    }

    @Test
    void threeInstancesOnSixPartitionsRaiseWhatReplayRaises() throws Exception {
        List<Telemetry> input = incident(fixture);
        try (LiveHarness h = BROKER.harness(6)) {
            assertThat(run(h, "three", 3, Map.of(), input, all -> all(all, AlertStatus.resolved, FLEETS))).isEqualTo(replay(input));
        }
    }
}
