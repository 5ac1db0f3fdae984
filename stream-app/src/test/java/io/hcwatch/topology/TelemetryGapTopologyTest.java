package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.config.Settings;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Through the whole topology on event time: of two HAProxy hosts logging to the same partition,
 * one stops for 90 s while the other goes on; the feed monitor raises telemetry_gap for the
 * silent one, scoped by source and host, and resolves it when its logs come back.
 */
class TelemetryGapTopologyTest {

    private static final String SCOPE = "telemetry-gap-topology-test";
    private static final Instant T0 = Instant.parse("2026-03-03T14:30:00Z");
    private static final Settings SETTINGS = Settings.defaults().with(Map.of("alert.cool-down", "0s"));
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final Topics topics = Topics.defaults();
    private TopologyTestDriver driver;

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    private static void request(TestInputTopic<byte[], byte[]> haproxy, String host, Instant ts) {
        haproxy.pipeInput(null, HaproxyLines.request(host, ts), ts);
    }

    /** Starts the topology (no cool-down, so resolves come as soon as the condition clears) and gives {@code source}'s input. */
    private TestInputTopic<byte[], byte[]> start(Source source) {
        TopologyConfig config = new TopologyConfig(topics, SETTINGS,
                Decoders.standard(topics, serdeConfig, Clock.fixed(T0, ZoneOffset.UTC)), serdeConfig, new SimpleMeterRegistry(), false);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(TopologyFactory.build(config), props);
        return input(source);
    }

    private TestInputTopic<byte[], byte[]> input(Source source) {
        return driver.createInputTopic(topics.input(source), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    }

    /** The telemetry_gap alerts, once ingest has sent on what it holds. */
    private List<Alert> gaps() {
        driver.advanceWallClockTime(SETTINGS.duration("combine.flush-interval"));
        return driver.createOutputTopic(topics.alerts(), Serdes.String().deserializer(),
                        SpecificAvroSerde.forValues(Alert.class, serdeConfig).deserializer()).readValuesToList().stream()
                .filter(a -> a.getType().equals("telemetry_gap")).toList();
    }

    @Test
    void aHostWhoseLogsStopWhileAnotherGoesOnRaisesTelemetryGapUntilTheyReturn() {
        TestInputTopic<byte[], byte[]> haproxy = start(Source.HAPROXY);

        for (int second = 0; second < 240; second++) {
            Instant ts = T0.plusSeconds(second).plusMillis(200);
            request(haproxy, "lb1", ts);
            if (second < 60 || second >= 150) {
                request(haproxy, "lb2", ts.plusMillis(100));
            }
        }
        List<Alert> gaps = gaps();
        // lb2's last second before the stop is 14:30:59; silent longer than 30 s at the step of 14:31:30
        assertThat(gaps).extracting(Alert::getDedupKey, Alert::getStatus, Alert::getEventTime).containsExactly(
                tuple("telemetry_gap/haproxy/lb2", AlertStatus.firing, T0.plusSeconds(90)),
                tuple("telemetry_gap/haproxy/lb2", AlertStatus.resolved, T0.plusSeconds(170)));
        assertThat(gaps.get(0).getScope().getHost()).isEqualTo("lb2");
        assertThat(gaps.get(0).getDetails()).containsEntry("source", "haproxy").containsEntry("last_seen", "2026-03-03T14:30:59Z");
        assertThat(gaps.get(0).getRunbookUrl()).endsWith("/runbooks/telemetry-gap.md");
    }

    /**
     * The collector's polls (haproxy-stats) go on for lb2 after its logs stop, and stop with lb3's:
     * lb2's telemetry_gap says its log shipping stopped, lb3's that the host is gone. The polls make
     * no feed of their own.
     */
    @Test
    void theCollectorsPollsTellALogShippingGapFromAHostGone() {
        TestInputTopic<byte[], byte[]> haproxy = start(Source.HAPROXY);
        TestInputTopic<byte[], byte[]> stats = input(Source.HAPROXY_STATS);

        for (int second = 0; second < 150; second++) {
            Instant ts = T0.plusSeconds(second).plusMillis(200);
            request(haproxy, "lb1", ts);
            if (second < 60) {
                request(haproxy, "lb2", ts.plusMillis(100));
                request(haproxy, "lb3", ts.plusMillis(100));
                stats.pipeInput(null, poll("lb3", ts.plusMillis(300)), ts.plusMillis(300));
            }
            stats.pipeInput(null, poll("lb2", ts.plusMillis(300)), ts.plusMillis(300));
        }
        List<Alert> gaps = gaps();
        // both fell silent after 14:30:59; lb2 is judged as its poll of 14:31:29.5 arrives, lb3 at the step of 14:31:30
        assertThat(gaps).extracting(Alert::getDedupKey, Alert::getStatus, Alert::getEventTime).containsExactlyInAnyOrder(
                tuple("telemetry_gap/haproxy/lb2", AlertStatus.firing, T0.plusMillis(89_500)),
                tuple("telemetry_gap/haproxy/lb3", AlertStatus.firing, T0.plusSeconds(90)));
        Map<String, Alert> byKey = gaps.stream().collect(java.util.stream.Collectors.toMap(Alert::getDedupKey, a -> a));
        assertThat(byKey.get("telemetry_gap/haproxy/lb2").getDetails()).containsEntry("polls", "continuing")
                .containsEntry("last_seen", "2026-03-03T14:30:59Z");
        assertThat(byKey.get("telemetry_gap/haproxy/lb2").getSummary()).contains("rsyslog");
        assertThat(byKey.get("telemetry_gap/haproxy/lb3").getDetails()).containsEntry("polls", "stopped")
                .containsEntry("last_polled", "2026-03-03T14:30:59.500Z");
        assertThat(byKey.get("telemetry_gap/haproxy/lb3").getSummary()).contains("the host or HAProxy is gone");
    }

    private static byte[] poll(String host, Instant at) {
        return ("{\"ts\":\"" + at + "\",\"host\":\"" + host + "\",\"frontends\":[{\"name\":\"www\",\"scur\":3}]}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
