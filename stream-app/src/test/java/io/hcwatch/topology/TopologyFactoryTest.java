package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.config.Settings;
import io.hcwatch.input.Check;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TopologyFactoryTest {

    private static final String SCOPE = "topology-factory-test";
    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> health;
    private TestOutputTopic<String, Alert> alerts;
    private TestOutputTopic<String, DeadLetter> deadLetters;
    private TestOutputTopic<String, Incident> incidents;
    private SpecificAvroSerde<HealthCheckResult> healthSerde;
    private TestInputTopic<String, byte[]> fleetRepartition;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @BeforeEach
    void start() {
        Map<Source, Decoder> decoders = IngestRecords.healthAvroOnly(serdeConfig);
        TopologyConfig config = new TopologyConfig(Topics.defaults(), Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s")), decoders, serdeConfig,
                meters, false);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(TopologyFactory.build(config), props);
        health = driver.createInputTopic("health-check-results", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        healthSerde = SpecificAvroSerde.forValues(HealthCheckResult.class, serdeConfig);
        fleetRepartition = driver.createInputTopic("hcwatch-test-fleet-repartition", Serdes.String().serializer(),
                Serdes.ByteArray().serializer());
        alerts = driver.createOutputTopic("alerts", Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(Alert.class, serdeConfig).deserializer());
        incidents = driver.createOutputTopic("incidents", Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(Incident.class, serdeConfig).deserializer());
        deadLetters = driver.createOutputTopic("telemetry-dlq", Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(DeadLetter.class, serdeConfig).deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    private void check(String target, String az, long ts, boolean ok) {
        health.pipeInput(null, healthSerde.serializer().serialize("health-check-results", IngestRecords.albCheck(target, az, ts, ok)),
                Instant.ofEpochMilli(ts));
    }

    @Test
    void correlatedFailureFiresAndResolvesThroughTheWholeTopologyKeyedByDedupKey() {
        for (long s = T0; s < T0 + 60_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                check("i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, true);
            }
        }
        for (long s = T0 + 60_000; s < T0 + 90_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                check("i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, i >= 3);
            }
        }
        for (long s = T0 + 90_000; s < T0 + 180_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                check("i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, true);
            }
        }
        List<org.apache.kafka.streams.test.TestRecord<String, Alert>> out = alerts.readRecordsToList();
        assertThat(out).extracting(r -> r.getValue().getType()).containsOnly("correlated_failure");
        assertThat(out).extracting(r -> r.getValue().getStatus()).containsExactly(AlertStatus.firing, AlertStatus.resolved);
        assertThat(out).allSatisfy(r -> assertThat(r.key()).isEqualTo("correlated_failure/prod-web-tg"));
        assertThat(out.get(0).getValue().getRunbookUrl()).endsWith("/runbooks/correlated-failure.md");
        assertThat(deadLetters.isEmpty()).isTrue();

        List<org.apache.kafka.streams.test.TestRecord<String, Incident>> pages = incidents.readRecordsToList();
        assertThat(pages).extracting(r -> r.getValue().getChange()).containsExactly(IncidentChange.opened, IncidentChange.resolved);
        assertThat(pages).allSatisfy(r -> assertThat(r.key()).isEqualTo("target_group/prod-web-tg"));
        assertThat(pages).extracting(r -> r.getValue().getEventTime())
                .containsExactly(out.get(0).getValue().getEventTime(), out.get(1).getValue().getEventTime());
        assertThat(pages.get(1).getValue().getMembers()).singleElement()
                .satisfies(m -> assertThat(m.getDedupKey()).isEqualTo("correlated_failure/prod-web-tg"));
    }

    @Test
    void checksOfASecondNotYetOverLeaveOnTheWallClockFlush() {
        for (long s = T0; s < T0 + 60_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                check("i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, true);
            }
        }
        for (int i = 0; i < 9; i++) {
            check("i-" + i, "us-east-1" + "abc".charAt(i % 3), T0 + 60_000 + i, i >= 3);
        }
        assertThat(alerts.isEmpty()).as("the failing checks are held in their batch while their second lasts").isTrue();
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));
        assertThat(alerts.readValuesToList()).extracting(Alert::getType, Alert::getStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("correlated_failure", AlertStatus.firing));
    }

    @Test
    void undecodableInputGoesToTheDeadLetterTopicWithItsBytesAndReason() {
        byte[] junk = {0, 0, 0, 0, 99, 1, 2};
        health.pipeInput(null, junk, Instant.ofEpochMilli(T0));
        health.pipeInput(null, "{not json".getBytes(), Instant.ofEpochMilli(T0));
        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).getSource()).isEqualTo("health");
        assertThat(dead.get(0).getReason()).isEqualTo("bad_avro");
        assertThat(dead.get(0).getTopic()).isEqualTo("health-check-results");
        assertThat(dead.get(0).getOffset()).isZero();
        assertThat(dead.get(0).getRaw().array()).isEqualTo(junk);
        assertThat(dead.get(1).getReason()).isEqualTo("not_json");
        assertThat(alerts.isEmpty()).isTrue();
    }

    /** This release's encoding of a check, with its schema version byte raised past what this release knows. */
    private static byte[] newerVersionOfACheck() {
        byte[] bytes = new EnvelopeSerde().serialize("t", new Envelope(new Check(HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(T0)).setSource("alb").setTargetGroup("prod-web-tg").setTarget("i-new")
                .setOutcome(CheckOutcome.pass).build()), "health-0"));
        bytes[2] = (byte) (Envelope.Kind.HEALTH_CHECK.version() + 1);
        return bytes;
    }

    /**
     * During a rolling upgrade (or after a rollback) an instance reads repartition records that a newer
     * release wrote: a schema version or a kind it does not know. Each is one record's outcome
     * (dead-lettered with reason newer_version and its bytes, counted), not an exception that replaces
     * the stream thread, which would read the same record again, forever. (With TopologyTestDriver an
     * exception reaching Kafka Streams fails {@code pipeInput}.)
     */
    @Test
    void repartitionRecordsOfANewerReleaseAreDeadLetteredOneByOneAndTheMonitorGoesOn() {
        byte[] newerVersion = newerVersionOfACheck();
        byte[] newerKind = newerVersion.clone();
        newerKind[1] = 99; // a kind a later release added
        newerKind[2] = 1;

        assertThatCode(() -> {
            fleetRepartition.pipeInput("prod-web-tg", newerVersion, Instant.ofEpochMilli(T0));
            fleetRepartition.pipeInput("prod-web-tg", newerKind, Instant.ofEpochMilli(T0));
        }).doesNotThrowAnyException();

        // the monitor still judges the target group: a third of it failing together alerts
        for (long s = T0; s < T0 + 120_000; s += 10_000) {
            boolean failing = s >= T0 + 60_000;
            for (int i = 0; i < 9; i++) {
                check("i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, !(failing && i < 3));
            }
        }
        assertThat(alerts.readValuesToList()).extracting(Alert::getDedupKey).contains("correlated_failure/prod-web-tg");

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).hasSize(2).allSatisfy(d -> {
            assertThat(d.getReason()).isEqualTo("newer_version");
            assertThat(d.getStage()).isEqualTo("monitor-fleet");
            assertThat(d.getTopic()).isEqualTo("hcwatch-test-fleet-repartition");
            assertThat(d.getKey()).isEqualTo("prod-web-tg");
        });
        assertThat(dead.get(0).getRaw().array()).isEqualTo(newerVersion);
        assertThat(dead.get(0).getError()).contains("HEALTH_CHECK", "version " + newerVersion[2]);
        assertThat(dead.get(1).getRaw().array()).isEqualTo(newerKind);
        assertThat(dead.get(1).getError()).contains("kind 99");
        assertThat(meters.find("hcwatch.newer.version").tag("stage", "monitor-fleet").tag("held_in", "repartition")
                .counter().count()).isEqualTo(2);
    }
}
