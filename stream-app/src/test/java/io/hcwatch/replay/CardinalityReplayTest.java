package io.hcwatch.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A producer that puts a fresh id into every target-group name, through the real ingest and fleet
 * monitor: past limits.target-groups every record is dead-lettered with reason cardinality and
 * counted by kind, and the store holds exactly the limit. The same limit logic that
 * {@code ./hcwatch bench cardinality} runs with a million names.
 */
class CardinalityReplayTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();

    @Test
    void aProducerMintingNamesIsCutAtTheLimitAndEveryExcessRecordIsDeadLettered() {
        int names = 20_000;
        int limit = 500;
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<DeadLetter> dead = new ArrayList<>();
        List<Alert> alerts = new ArrayList<>();
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://cardinality-test");
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(),
                Settings.defaults().with(Map.of("limits.target-groups", String.valueOf(limit))),
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, registry, false), alerts::add, dead::add);
        // all within one minute of event time
        for (int i = 0; i < names; i++) {
            long ts = T0 + i * 60_000L / names;
            pipeline.feed(Source.HEALTH, check("tg-" + i + "-" + Long.toHexString(ts), ts), ts, "test", i);
        }
        pipeline.feed(Source.HEALTH, check("tg-0-" + Long.toHexString(T0), T0 + 70_000), T0 + 70_000, "test", names);
        pipeline.finish();

        assertThat(dead).hasSize(names - limit).allSatisfy(d -> {
            assertThat(d.getReason()).isEqualTo("cardinality");
            assertThat(d.getError()).contains("limits.target-groups=500");
        });
        // the first 500 names were taken in, the rest refused
        assertThat(new String(dead.get(0).getRaw().array(), StandardCharsets.UTF_8)).contains("\"tg-500-");
        assertThat(pipeline.storeSize(TopologyFactory.FLEET_STORE).keys()).isEqualTo(limit);
        assertThat(registry.get("hcwatch.cardinality.rejected").tag("kind", "target_group").counter().count())
                .isEqualTo(names - limit);
        assertThat(registry.get("hcwatch.records.rejected").tag("reason", "cardinality").counter().count())
                .isEqualTo(names - limit);
        assertThat(alerts).isEmpty();
    }

    private static byte[] check(String group, long ts) {
        return ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"target_group\":\"" + group
                + "\",\"target\":\"i-1\",\"outcome\":\"pass\",\"latency_ms\":12,\"state\":\"healthy\"}").getBytes(StandardCharsets.UTF_8);
    }
}
