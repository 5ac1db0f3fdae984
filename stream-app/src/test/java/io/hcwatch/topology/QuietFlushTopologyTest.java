package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.config.Settings;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Live, a partition that has read a burst and gone quiet sends on what it holds one tick later, not
 * at the next flush: the checks that make an alert reach the monitor tens of milliseconds sooner.
 */
class QuietFlushTopologyTest {

    private static final String SCOPE = "quiet-flush-topology-test";
    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final SpecificAvroSerde<HealthCheckResult> healthSerde = SpecificAvroSerde.forValues(HealthCheckResult.class, serdeConfig);
    private TopologyDriver driver;
    private TestInputTopic<byte[], byte[]> health;
    private TestOutputTopic<String, Alert> alerts;

    private void start(String quietFlush) {
        Map<Source, Decoder> decoders = IngestRecords.healthAvroOnly(serdeConfig);
        Settings settings = Settings.defaults().with(Map.of("alert.cool-down", "0s", "combine.quiet-flush", quietFlush));
        TopologyConfig config = new TopologyConfig(Topics.defaults(), settings, decoders, serdeConfig, new SimpleMeterRegistry(), true);
        driver = new TopologyDriver(config, Instant.ofEpochMilli(T0 + 60_500));
        health = driver.input(Source.HEALTH);
        alerts = driver.alerts();
        // the first flush interval's tick, before any record
        driver.advanceWallClockTime(Duration.ofMillis(100));
    }

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    /** A minute of passing checks, then a second in which three targets of nine fail: correlated_failure once it is judged. */
    private void burst() {
        for (long s = T0; s < T0 + 60_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                check("i-" + i, s + i, true);
            }
        }
        for (int i = 0; i < 9; i++) {
            check("i-" + i, T0 + 60_000 + i, i >= 3);
        }
    }

    private void check(String target, long ts, boolean ok) {
        health.pipeInput(null, healthSerde.serializer().serialize("health-check-results",
                IngestRecords.albCheck(target, "us-east-1" + "abc".charAt(target.charAt(2) % 3), ts, ok)), Instant.ofEpochMilli(ts));
    }

    private boolean fired() {
        return alerts.readValuesToList().stream()
                .anyMatch(a -> a.getType().equals("correlated_failure") && a.getStatus() == AlertStatus.firing);
    }

    @Test
    void aBurstGoesOutOneQuietTickAfterItsLastRecord() {
        start("10ms");
        burst();
        driver.advanceWallClockTime(Duration.ofMillis(10));
        assertThat(fired()).as("the tick right after the burst: records were read since the last one").isFalse();
        driver.advanceWallClockTime(Duration.ofMillis(10));
        assertThat(fired()).as("a tick with nothing read: the partition is quiet").isTrue();
    }

    @Test
    void withoutAQuietFlushTheBurstWaitsForTheFlushInterval() {
        start("0ms");
        burst();
        driver.advanceWallClockTime(Duration.ofMillis(20));
        assertThat(fired()).isFalse();
        driver.advanceWallClockTime(Duration.ofMillis(80));
        assertThat(fired()).isTrue();
    }
}
