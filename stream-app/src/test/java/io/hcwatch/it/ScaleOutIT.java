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
 * hcwatch scaled out on a real broker: two instances (under each processing guarantee), two stream
 * threads or three instances on six partitions raise what replay of the same input raises, whichever
 * instance owns which partitions. The runs share one broker, each on topics of its own.
 */
class ScaleOutIT {

    @RegisterExtension
    static final BrokerPerClass BROKER = new BrokerPerClass();
    private final IncidentFixture fixture = new IncidentFixture(FLEETS);

    @ParameterizedTest(name = "processing.guarantee={0}")
    @ValueSource(strings = {"at_least_once", "exactly_once_v2"})
    void twoInstancesOnSixPartitionsRaiseWhatReplayRaises(String g) throws Exception {
        List<Telemetry> input = incident(fixture);
        try (LiveHarness h = BROKER.harness(6)) {
            // held to replay, the reference of the other cases, rather than to a live run of one instance: a run less
            assertThat(run(h, "two", 2, guarantee(g), input, all -> all(all, AlertStatus.resolved, FLEETS)))
                    .isEqualTo(replay(input));
        }
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
