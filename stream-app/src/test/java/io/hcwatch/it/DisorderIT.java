package io.hcwatch.it;

import static io.hcwatch.it.IncidentFixture.T0;
import static io.hcwatch.it.ReliabilityRuns.FLEETS;
import static io.hcwatch.it.ReliabilityRuns.WAIT;
import static io.hcwatch.it.ReliabilityRuns.all;
import static io.hcwatch.it.ReliabilityRuns.guarantee;
import static io.hcwatch.it.ReliabilityRuns.incident;
import static io.hcwatch.it.ReliabilityRuns.replay;
import static io.hcwatch.it.ReliabilityRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.topology.Source;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * hcwatch on a real broker through disorder and hostile input: a partition paused for minutes of
 * event time, junk interleaved with an incident, records shuffled within the grace period. Each test
 * compares what reached the alerts and incidents topics with replay of the clean, ordered input (which
 * a live run on it raises too: ScaleOutIT). The runs share one broker, each on topics of its own.
 */class DisorderIT {

    @RegisterExtension
    static final BrokerPerClass BROKER = new BrokerPerClass();
    private final IncidentFixture fixture = new IncidentFixture(FLEETS);

    /**
     * One input partition's producer stops for two minutes of event time, covering the whole
     * incident, while the others go on; then it catches up. Its half of each fleet's failures is
     * read minutes after the other half, which the monitors must still count together.
     */
    @Test
    void aPartitionPausedForMinutesOfEventTimeThenCatchingUpRaisesWhatReplayRaises() throws Exception {
        List<Telemetry> input = incident(fixture);
        try (LiveHarness h = BROKER.harness(3)) {
            List<Telemetry> skewed = pausePartition(input, 3, 1, T0 + 50_000, T0 + 170_000);
            assertThat(skewed).isNotEqualTo(input);
            // the pause lasts a few seconds of wall time: the partition stays waited for (window.idle-timeout)
            assertThat(run(h, "paused", 2, Map.of("detect.window.idle-timeout", "60s"), skewed,
                    all -> all(all, AlertStatus.resolved, FLEETS))).isEqualTo(replay(input));
        }
    }

    @ParameterizedTest(name = "junk lines={0}")
    @ValueSource(ints = {20_000})
    void junkInterleavedWithAnIncidentIsDeadLetteredExactlyAndChangesNoAlert(int junkLines) throws Exception {
        List<Telemetry> input = incident(fixture);
        List<Telemetry> junky = interleaveJunk(input, junkLines);
        try (LiveHarness h = BROKER.harness(3);
             LiveHarness.TopicReader<DeadLetter> dead = h.deadLetters()) {
            // done once every junk line is dead-lettered too: the app must not be closed while the junk
            // read after the recovery is still on its way to the dead-letter topic
            Map<String, List<String>> withJunk = run(h, "junk", 1, guarantee("at_least_once"), junky,
                    all -> all(all, AlertStatus.resolved, FLEETS) && dead.poll().size() >= junkLines, WAIT.multipliedBy(3));
            List<DeadLetter> letters = dead.poll();
            assertThat(letters).hasSize(junkLines);
            assertThat(letters.stream().map(DeadLetter::getSource).collect(Collectors.toSet()))
                    .isEqualTo(Arrays.stream(Source.values()).map(Source::id).collect(Collectors.toSet()));
            assertThat(withJunk).isEqualTo(replay(input));
        }
    }

    /**
     * Disorder inside an evaluation step (eval.step, 10 s): a record is held until every partition has
     * passed it and released in event-time order, so the step judges what replay does. Disorder across
     * a step is not absorbed: a record older than a step already judged is applied behind it
     * (hcwatch_records_behind_total, README "Ordering"), as a run in 20 s windows showed once the
     * empty inputs no longer held every step until the input had all arrived (a dns_failover raised live only).
     */
    @Test
    void recordsShuffledWithinAnEvaluationStepRaiseTheSameAlerts() throws Exception {
        List<Telemetry> input = incident(fixture);
        List<Telemetry> shuffled = shuffleWithinSteps(input, 10_000, new Random(7));
        assertThat(shuffled).isNotEqualTo(input);
        try (LiveHarness h = BROKER.harness(3)) {
            assertThat(run(h, "shuffled", 1, guarantee("at_least_once"), shuffled, all -> all(all, AlertStatus.resolved, FLEETS)))
                    .isEqualTo(replay(input));
        }
    }

    /**
     * The records that input partition {@code paused} of {@code partitions} receives from {@code from}
     * to {@code to}, produced only once every other partition has reached {@code to}.
     */
    private static List<Telemetry> pausePartition(List<Telemetry> input, int partitions, int paused, long from, long to) {
        List<Telemetry> out = new ArrayList<>();
        List<Telemetry> heldBack = new ArrayList<>();
        for (Telemetry t : input) {
            boolean inPause = t.key() != null && t.eventTime() >= from && t.eventTime() < to
                    && BuiltInPartitioner.partitionForKey(t.key().getBytes(StandardCharsets.UTF_8), partitions) == paused;
            if (!heldBack.isEmpty() && t.eventTime() >= to) {
                out.addAll(heldBack);
                heldBack.clear();
            }
            (inPause ? heldBack : out).add(t);
        }
        out.addAll(heldBack);
        return out;
    }

    private static List<Telemetry> interleaveJunk(List<Telemetry> input, int junkLines) {
        Random random = new Random(42);
        Source[] sources = Source.values();
        List<Telemetry> out = new ArrayList<>(input.size() + junkLines);
        int perRecord = Math.max(1, junkLines / input.size() + 1);
        int left = junkLines;
        for (Telemetry t : input) {
            out.add(t);
            for (int i = 0; i < perRecord && left > 0; i++, left--) {
                Source s = sources[random.nextInt(sources.length)];
                byte[] junk = switch (random.nextInt(3)) {
                    case 0 -> ("garbage line " + random.nextLong()).getBytes(StandardCharsets.UTF_8);
                    case 1 -> new byte[] {(byte) 0xff, (byte) 0xfe, (byte) random.nextInt(), 10};
                    default -> "{\"ts\":\"not a time\"}".getBytes(StandardCharsets.UTF_8);
                };
                out.add(new Telemetry(s, t.eventTime(), junk, null));
            }
        }
        return out;
    }

    /** Shuffles records inside each evaluation step of event time ({@code step} apart from the epoch): disorder, but never across one. */
    private static List<Telemetry> shuffleWithinSteps(List<Telemetry> input, long step, Random random) {
        List<Telemetry> ordered = new ArrayList<>(input);
        ordered.sort(java.util.Comparator.comparingLong(Telemetry::eventTime));
        List<Telemetry> out = new ArrayList<>();
        List<Telemetry> bucket = new ArrayList<>();
        long bucketStep = Long.MIN_VALUE;
        for (Telemetry t : ordered) {
            long s = Math.floorDiv(t.eventTime(), step);
            if (s != bucketStep) {
                Collections.shuffle(bucket, random);
                out.addAll(bucket);
                bucket.clear();
                bucketStep = s;
            }
            bucket.add(t);
        }
        Collections.shuffle(bucket, random);
        out.addAll(bucket);
        return out;
    }
}
