package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.input.Check;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A detector that throws on one target group, and an ingest that cannot route a record: each
 * failure is counted, dead-lettered with its stage, key and exception, and skipped; every other
 * target group keeps alerting. (With TopologyTestDriver an exception reaching Kafka Streams would
 * fail {@code pipeInput}: the test passing means none did.)
 */
class FailingDetectorTest {

    private static final String SCOPE = "failing-detector-test";
    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private static final String BAD = "tg-bad";
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> health;
    private TestOutputTopic<String, Alert> alerts;
    private TestOutputTopic<String, DeadLetter> deadLetters;
    private final SpecificAvroSerde<HealthCheckResult> healthSerde = SpecificAvroSerde.forValues(HealthCheckResult.class, serdeConfig);

    private void start(Decoder healthDecoder) {
        Map<Source, Decoder> decoders = new EnumMap<>(Source.class);
        for (Source s : Source.values()) {
            decoders.put(s, raw -> ParseResult.rejected("not_json", "this test sends Avro only"));
        }
        decoders.put(Source.HEALTH, healthDecoder);
        TopologyConfig config = new TopologyConfig(Topics.defaults(), Settings.defaults().with(Map.of("alert.cool-down", "0s")),
                decoders, serdeConfig, meters, false);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(TopologyFactory.build(new Stages(config, real -> new ThrowsOnOneGroup(real, BAD))), props);
        health = driver.createInputTopic("health-check-results", Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        alerts = driver.createOutputTopic("alerts", Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(Alert.class, serdeConfig).deserializer());
        deadLetters = driver.createOutputTopic("telemetry-dlq", Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(DeadLetter.class, serdeConfig).deserializer());
    }

    private Decoder avro() {
        AvroOrJsonDecoder<HealthCheckResult> avro = new AvroOrJsonDecoder<>(HealthCheckResult.class, serdeConfig,
                raw -> ParseResult.rejected("not_json", "this test sends Avro only"), "health-check-results");
        return raw -> avro.decode(raw).map(Check::new);
    }

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    private void check(String group, String target, String az, long ts, boolean ok) {
        HealthCheckResult r = HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts)).setSource("alb").setTargetGroup(group).setTarget(target).setAz(az)
                .setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout).setLatencyMs(ok ? 100 : 2000)
                .setState(ok ? TargetState.healthy : TargetState.unhealthy).setReason(ok ? null : "Target.Timeout").build();
        health.pipeInput(null, healthSerde.serializer().serialize("health-check-results", r), Instant.ofEpochMilli(ts));
    }

    /** Both groups: a minute healthy, a third of the targets failing together for 30 s, healthy again. */
    private void incidentInBothGroups() {
        for (long s = T0; s < T0 + 180_000; s += 10_000) {
            boolean failing = s >= T0 + 60_000 && s < T0 + 90_000;
            for (String group : new String[] {"tg-good", BAD}) {
                for (int i = 0; i < 9; i++) {
                    check(group, "i-" + i, "us-east-1" + "abc".charAt(i % 3), s + i, !(failing && i < 3));
                }
            }
        }
    }

    private double errors(String stage) {
        var counter = meters.find("hcwatch.processing.errors").tag("stage", stage).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aDetectorThrowingOnOneTargetGroupIsDeadLetteredAndTheOthersKeepAlerting() {
        start(avro());
        incidentInBothGroups();

        List<Alert> out = alerts.readValuesToList();
        assertThat(out).extracting(Alert::getDedupKey, Alert::getStatus).containsExactly(
                org.assertj.core.groups.Tuple.tuple("correlated_failure/tg-good", AlertStatus.firing),
                org.assertj.core.groups.Tuple.tuple("correlated_failure/tg-good", AlertStatus.resolved));

        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).isNotEmpty().allSatisfy(d -> {
            assertThat(d.getReason()).isEqualTo("processing_error");
            assertThat(d.getStage()).isEqualTo("monitor-fleet");
            assertThat(d.getKey()).isEqualTo(BAD);
            assertThat(d.getExceptionClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(d.getExceptionMessage()).isEqualTo("injected failure judging tg-bad");
            assertThat(d.getExceptionStack()).contains("ThrowsOnOneGroup");
        });
        // a record's failure carries the record (its internal encoding) and where it was read
        assertThat(dead).anySatisfy(d -> {
            assertThat(d.getSource()).isEqualTo("health");
            assertThat(d.getTopic()).endsWith("fleet-repartition");
            assertThat(new EnvelopeSerde().deserialize("t", d.getRaw().array()).telemetry().parts())
                    .allSatisfy(r -> assertThat(((Check) r).result().getTargetGroup()).isEqualTo(BAD));
        });
        assertThat(errors("monitor-fleet")).isEqualTo(dead.size());
        assertThat(errors("ingest-health")).isZero();
    }

    @Test
    void aRecordTheIngestFailsOnIsDeadLetteredWithItsBytesAndTheNextOneIsRead() {
        Decoder real = avro();
        // decodes to a check with no time: taking it in throws inside the ingest
        start(raw -> raw.length == 3 ? ParseResult.ok(new Check(new HealthCheckResult())) : real.decode(raw));
        byte[] odd = {7, 7, 7};
        health.pipeInput(null, odd, Instant.ofEpochMilli(T0));
        incidentInBothGroups();

        List<DeadLetter> ingestDead = deadLetters.readValuesToList().stream()
                .filter(d -> "ingest-health".equals(d.getStage())).toList();
        assertThat(ingestDead).singleElement().satisfies(d -> {
            assertThat(d.getSource()).isEqualTo("health");
            assertThat(d.getTopic()).isEqualTo("health-check-results");
            assertThat(d.getOffset()).isZero();
            assertThat(d.getRaw().array()).isEqualTo(odd);
            assertThat(d.getKey()).isNull();
            assertThat(d.getExceptionClass()).isEqualTo(NullPointerException.class.getName());
        });
        assertThat(errors("ingest-health")).isEqualTo(1);
        assertThat(alerts.readValuesToList()).extracting(Alert::getDedupKey).contains("correlated_failure/tg-good");
    }

    @Test
    void everyStageIsCountedFromZero() {
        start(avro());
        for (String stage : List.of("ingest-alb", "ingest-haproxy", "ingest-health", "monitor-fleet", "monitor-host",
                "monitor-flood")) {
            assertThat(meters.find("hcwatch.processing.errors").tag("stage", stage).counter()).as(stage).isNotNull();
        }
    }
}
