package io.hcwatch.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.config.Settings;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The simulator's ALB scenarios as an AWS account delivers them: the collector's records as they
 * happen, ALB's logs in 5-minute objects per node, each 1 to 2.5 minutes after its period. The live
 * topology (wall clock, idle and silent upstreams, silence) is fed each delivery at its wall time,
 * with {@code window.source-delay} for the two log sources; replay reads the same records in
 * event-time order. Up to the end of the input, every alert (by dedup key) must have the same
 * episodes, worst severity and state at the end, and fire first at the same time, and no record
 * may be late. "The same time" is within a second: the ingest sends a second's checks as one batch
 * (README, Benchmarks), which replay cuts where event time passes its 100 ms flushes and live
 * where the wall clock does, so a check-driven alert may be judged up to 999 ms apart. (The whole topology runs in the Kafka Streams test driver, whose wall clock this
 * test moves in 100 ms steps, so minutes of delivery take seconds.)
 */
class AwsBatchDeliveryIT {

    private static final Topics TOPICS = Topics.defaults();

    @ParameterizedTest
    @EnumSource(value = Scenario.class, names = {"ZONAL_GRAY_FAILURE", "TIMEOUT_CUT", "FAIL_OPEN"})
    void liveOnFiveMinuteBatchesRaisesWhatReplayRaises(Scenario scenario) {
        // the demo's cut of the scenario, with fewer requests: the driver commits (and serialises state) per record
        ScenarioParams params = scenario.demoParams().withAlbRequestsPerSecond(10).withHaproxyRequestsPerSecond(0);
        AwsDelivery delivery = new AwsDelivery(params.zones());
        List<Telemetry> inOrder = new ArrayList<>();
        Simulation.ofAws(scenario, params).run(t -> {
            inOrder.add(t);
            delivery.accept(t);
        });
        long delay = AwsDelivery.longestDelayMillis(params.zones());
        String delays = "alb=" + delay + "ms,alb-health=" + delay + "ms";
        Settings settings = Settings.defaults().with(Map.of("window.source-delay", delays));
        long end = inOrder.get(inOrder.size() - 1).eventTimeMillis();

        Map<String, Summary> replayed = summaries(replay(inOrder, settings, params), end);
        Live live = live(delivery.deliveries(), settings, params, delay);
        Map<String, Summary> lived = summaries(live.alerts, end);

        assertThat(replayed).as("replay raises the scenario's alerts").isNotEmpty();
        assertThat(lived.keySet()).isEqualTo(replayed.keySet());
        replayed.forEach((key, r) -> {
            Summary l = lived.get(key);
            assertThat(l.rest()).as(key).isEqualTo(r.rest());
            assertThat(Math.abs(l.firstFiring() - r.firstFiring())).as(key + " first fires within a second").isLessThan(1_000);
        });
        assertThat(live.late).as("records counted late").isZero();
    }

    @org.junit.jupiter.api.Test
    void withoutTheSourceDelayTheObjectsCountAsLate() {
        ScenarioParams params = Scenario.ZONAL_GRAY_FAILURE.demoParams().withAlbRequestsPerSecond(10).withHaproxyRequestsPerSecond(0);
        AwsDelivery delivery = new AwsDelivery(params.zones());
        Simulation.ofAws(Scenario.ZONAL_GRAY_FAILURE, params).run(delivery);
        Live live = live(delivery.deliveries(), Settings.defaults(), params, AwsDelivery.longestDelayMillis(params.zones()));
        assertThat(live.late).isPositive();
    }

    /** One alert's course: first firing (event time), and its episodes, worst severity and state at the end. */
    private record Summary(long firstFiring, List<String> rest) {
    }

    private static Map<String, Summary> summaries(List<Alert> alerts, long end) {
        Map<String, List<Alert>> byKey = new java.util.TreeMap<>();
        alerts.stream().filter(a -> a.getEventTime().toEpochMilli() <= end)
                .forEach(a -> byKey.computeIfAbsent(a.getDedupKey(), k -> new ArrayList<>()).add(a));
        Map<String, Summary> out = new java.util.TreeMap<>();
        byKey.forEach((key, notes) -> {
            long first = notes.stream().filter(a -> a.getStatus() == io.hcwatch.avro.v1.AlertStatus.firing)
                    .mapToLong(a -> a.getEventTime().toEpochMilli()).min().orElse(-1);
            String worst = notes.stream().map(Alert::getSeverity).min(java.util.Comparator.naturalOrder()).orElseThrow().name();
            out.put(key, new Summary(first, List.of("episodes:" + notes.stream().map(Alert::getAlertId).distinct().count(),
                    "worst:" + worst, "at the end:" + notes.get(notes.size() - 1).getStatus())));
        });
        return out;
    }

    private static List<Alert> replay(List<Telemetry> inOrder, Settings settings, ScenarioParams params) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://aws-batch-replay");
        TopologyConfig config = new TopologyConfig(TOPICS, settings, Decoders.standard(TOPICS, serde, clock(params)), serde,
                new SimpleMeterRegistry(), false);
        List<Alert> alerts = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(config, alerts::add, d -> { });
        long line = 0;
        for (Telemetry t : inOrder) {
            pipeline.feed(t.source(), t.value(), t.eventTimeMillis(), "simulated " + t.source().id(), ++line);
        }
        pipeline.finish();
        InMemorySchemaRegistry.dropScope("aws-batch-replay");
        return alerts;
    }

    private record Live(List<Alert> alerts, double late) {
    }

    private static Live live(List<AwsDelivery.Delivery> deliveries, Settings settings, ScenarioParams params, long delay) {
        String scope = "aws-batch-live";
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://" + scope);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TopologyConfig config = new TopologyConfig(TOPICS, settings, Decoders.standard(TOPICS, serde, clock(params)), serde,
                meters, true);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-aws-batch");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        long wall = params.start().toEpochMilli();
        try (TopologyTestDriver driver = new TopologyTestDriver(TopologyFactory.build(config), props, Instant.ofEpochMilli(wall))) {
            Map<Source, TestInputTopic<byte[], byte[]>> inputs = new EnumMap<>(Source.class);
            for (Source s : Source.values()) {
                inputs.put(s, driver.createInputTopic(TOPICS.input(s), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer()));
            }
            List<Alert> alerts = new ArrayList<>();
            for (AwsDelivery.Delivery d : deliveries) {
                wall = advance(driver, wall, d.at());
                drain(driver, alerts, serde);
                for (Telemetry t : d.records()) {
                    byte[] key = t.key() == null ? null : t.key().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    inputs.get(t.source()).pipeInput(key, t.value(), Instant.ofEpochMilli(t.eventTimeMillis()));
                }
            }
            // the last objects' delay, then some silence: everything up to the end is judged
            advance(driver, wall, wall + delay + 120_000);
            drain(driver, alerts, serde);
            double late = meters.find("hcwatch.records.late").counters().stream().mapToDouble(c -> c.count()).sum();
            return new Live(alerts, late);
        } finally {
            InMemorySchemaRegistry.dropScope(scope);
        }
    }

    /** Takes the alerts, and drops what the driver keeps of every other topic it wrote (changelogs, repartition topics). */
    private static void drain(TopologyTestDriver driver, List<Alert> alerts, Map<String, Object> serde) {
        for (String topic : driver.producedTopicNames()) {
            if (topic.equals(TOPICS.alerts())) {
                alerts.addAll(driver.createOutputTopic(topic, Serdes.String().deserializer(),
                        SpecificAvroSerde.forValues(Alert.class, serde).deserializer()).readValuesToList());
            } else {
                driver.createOutputTopic(topic, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer())
                        .readRecordsToList();
            }
        }
    }

    /** Moves the driver's wall clock to {@code to} in steps of the ingest's flush interval, so every punctuation runs. */
    private static long advance(TopologyTestDriver driver, long from, long to) {
        long wall = from;
        while (wall + 100 <= to) {
            driver.advanceWallClockTime(Duration.ofMillis(100));
            wall += 100;
            if (wall % 60_000 == 0) {
                driver.producedTopicNames().stream().filter(t -> !t.equals(TOPICS.alerts())).forEach(t -> driver
                        .createOutputTopic(t, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer()).readRecordsToList());
            }
        }
        return wall;
    }

    private static Clock clock(ScenarioParams params) {
        return Clock.fixed(params.start(), ZoneOffset.UTC);
    }
}
