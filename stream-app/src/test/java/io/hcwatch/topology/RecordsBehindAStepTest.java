package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A check that reaches the fleet monitor after an evaluation step later than it has run was
 * missing from that step's verdict, which replay never does: counted apart from the late ones
 * (older than the grace period). One target's checks every second up to T0+45s (the watermark;
 * the monitor has stepped to T0+40s), then one out-of-order check of another target of the same
 * target group.
 */
class RecordsBehindAStepTest {

    private static final String SCOPE = "records-behind-a-step-test";
    private static final Instant T0 = Instant.parse("2026-03-03T14:30:00Z");
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final Topics topics = Topics.defaults();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private TopologyTestDriver driver;

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    @ParameterizedTest(name = "a check at T0+{0}s after the monitor stepped to T0+40s: behind {1}, late {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # at (s) | behind | late | why
            41       | 0      | 0    | newer than every step: judged at the next one, as in replay
            40       | 0      | 0    | a step at T0+40s runs before the checks of T0+40s
            35       | 1      | 0    | the step at T0+40s judged without it
            17       | 1      | 0    | behind three steps, within the 30 s grace period of the watermark (T0+45s)
            10       | 0      | 1    | beyond the grace period: late
            """)
    void aCheckOlderThanTheLastStepIsCountedBehindOrLate(int at, int behind, int late, String why) {
        Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        driver = new TopologyTestDriver(TopologyFactory.build(new TopologyConfig(topics, Settings.defaults(),
                Decoders.standard(topics, serdeConfig, clock), serdeConfig, registry, false)), props());
        TestInputTopic<byte[], byte[]> health = driver.createInputTopic(topics.input(Source.HEALTH),
                Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        for (int s = 0; s <= 45; s++) {
            pipe(health, "i-1", T0.plusSeconds(s));
        }
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));
        assertThat(count(PipelineMetrics.BEHIND) + count(PipelineMetrics.LATE)).as("checks in order").isZero();

        pipe(health, "i-2", T0.plusSeconds(at));
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));

        assertThat(count(PipelineMetrics.BEHIND)).as(why).isEqualTo(behind);
        assertThat(count(PipelineMetrics.LATE)).as(why).isEqualTo(late);
    }

    private void pipe(TestInputTopic<byte[], byte[]> health, String target, Instant ts) {
        HealthCheckResult r = HealthCheckResult.newBuilder().setTs(ts).setSource("alb").setTargetGroup("tg-1")
                .setTarget(target).setOutcome(CheckOutcome.pass).setLatencyMs(40).setState(TargetState.healthy).build();
        health.pipeInput(null, HealthCheckResultJson.write(r).getBytes(StandardCharsets.UTF_8), ts);
    }

    private long count(String name) {
        return (long) registry.find(name).tag("monitor", "fleet").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private static Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }
}
