package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.HaproxyLineFormat;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
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
import org.junit.jupiter.api.Test;

/**
 * Each monitor keeps time by its own input. When one input runs ahead of another (a backlog of
 * health checks read before the HAProxy logs of the same minutes, as after downtime), the host
 * monitor must still judge the HAProxy minutes as they were, not as of the health checks' time.
 * (The test driver runs the whole topology as one task, as the monitors' merged alerts do live.)
 */
class MonitorClocksTest {

    private static final String SCOPE = "monitor-clocks-test";
    private static final Instant T0 = Instant.parse("2026-03-03T14:30:00Z");
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final Topics topics = Topics.defaults();
    private TopologyTestDriver driver;

    @AfterEach
    void stop() {
        if (driver != null) {
            driver.close();
        }
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void hostsAreJudgedByTheirOwnLogsWhenHealthChecksRunFarAhead() {
        driver = new TopologyTestDriver(TopologyFactory.build(config()), props());
        TestInputTopic<byte[], byte[]> config = input(Source.CONFIG);
        TestInputTopic<byte[], byte[]> health = input(Source.HEALTH);
        TestInputTopic<byte[], byte[]> haproxy = input(Source.HAPROXY);

        LbConfig frontend = LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId("lb1/hc-ping").setHost("lb1")
                .setFrontend("hc-ping").setMaxconn(2000).setTs(T0.minusSeconds(60)).build();
        config.pipeInput(null, bytes(LbConfigJson.write(frontend)), frontend.getTs());
        // three minutes of checks of another target group, read before the HAProxy logs of the first
        for (int s = 0; s < 180; s += 2) {
            HealthCheckResult r = HealthCheckResult.newBuilder().setTs(T0.plusSeconds(s)).setSource("alb")
                    .setTargetGroup("other-tg").setTarget("i-0abc0001").setOutcome(CheckOutcome.pass).setLatencyMs(40)
                    .setState(TargetState.healthy).build();
            health.pipeInput(null, bytes(HealthCheckResultJson.write(r)), r.getTs());
        }
        HaproxyLineFormat format = new HaproxyLineFormat();
        for (int second = 0; second < 60; second++) {
            for (int i = 0; i < 10; i++) {
                Instant ts = T0.plusSeconds(second).plusMillis(i * 100L);
                // sessions climb through 80% of maxconn (1600) at second 48
                int feconn = 400 + second * 25;
                HaproxyRequest r = HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(ts).setHost("lb1")
                        .setProcess("haproxy").setPid(4242).setClientIp("198.51.100." + (10 + i)).setClientPort(40_000 + i)
                        .setFrontend("hc-ping").setBackend("app").setServer("web1").setTr(0).setTw(0).setTc(1)
                        .setTrServer(20).setTa(30).setStatusCode(200).setBytesRead(1200L).setTerminationState("----")
                        .setActconn(feconn + 50).setFeconn(feconn).setBeconn(feconn / 2).setSrvConn(feconn / 6)
                        .setRetries(0).setSrvQueue(0).setBackendQueue(0).setHttpMethod("GET").setHttpUri("/ping")
                        .setHttpVersion("HTTP/1.1").build();
                haproxy.pipeInput(null, bytes(format.format(r)), ts);
            }
        }
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));
        System.out.println("DEBUG dlq " + driver.createOutputTopic(topics.deadLetters(), Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(io.hcwatch.avro.v1.DeadLetter.class, serdeConfig).deserializer()).readValuesToList());

        assertThat(driver.createOutputTopic(topics.alerts(), Serdes.String().deserializer(),
                        SpecificAvroSerde.forValues(Alert.class, serdeConfig).deserializer()).readValuesToList())
                .extracting(Alert::getDedupKey)
                .contains("socket_slot_exhaustion/lb1/hc-ping");
    }

    private TopologyConfig config() {
        Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        return new TopologyConfig(topics, Settings.defaults(), Decoders.standard(topics, serdeConfig, clock), serdeConfig,
                new SimpleMeterRegistry(), false);
    }

    private static Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }

    private TestInputTopic<byte[], byte[]> input(Source s) {
        return driver.createInputTopic(topics.input(s), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
