package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log format a collector publishes in lb-config is the one the stream app reads that frontend's
 * lines with, with nothing declared in its settings: the JSON lines a real HAProxy 2.6 wrote
 * (captures/haproxy-log-formats, frontend fe_json) are dead-lettered as unknown_format before the
 * format is published, and parsed after.
 */
class PublishedLogFormatsTopologyTest {

    private static final String SCOPE = "published-log-formats-test";
    private static final String CAPTURE = "/captures/haproxy-log-formats/";
    private static final Instant T0 = Instant.parse("2026-12-06T02:09:42Z");
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final Topics topics = Topics.defaults();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private TopologyDriver driver;
    private TestInputTopic<byte[], byte[]> logs;
    private TestInputTopic<byte[], byte[]> configs;
    private TestOutputTopic<String, DeadLetter> deadLetters;

    @BeforeEach
    void start() {
        driver = new TopologyDriver(new TopologyConfig(topics, Settings.defaults(),
                Decoders.standard(topics, serdeConfig, Clock.fixed(T0, ZoneOffset.UTC)), serdeConfig, meters, false));
        logs = driver.input(Source.HAPROXY);
        configs = driver.input(Source.CONFIG);
        deadLetters = driver.deadLetters();
    }

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void jsonLinesBeforeTheirFormatIsPublishedAreDeadLetteredAndAfterItParse() throws IOException {
        List<String> json = Arrays.stream(capture("captured.log").split("\n")).filter(l -> l.contains("\"fe\":\"fe_json\"")).toList();
        assertThat(json).hasSize(2);

        json.forEach(line -> logs.pipeInput(null, bytes(line), T0));
        List<DeadLetter> before = deadLetters.readValuesToList();
        assertThat(before).extracting(DeadLetter::getReason).containsExactly("unknown_format", "unknown_format");
        assertThat(before).allSatisfy(d -> assertThat(d.getError()).contains("config-file"));
        assertThat(parsed()).isZero();

        configs.pipeInput(null, bytes(frontendConfig("web1", "fe_json", jsonFormat())), T0);
        json.forEach(line -> logs.pipeInput(null, bytes(line), T0));

        assertThat(deadLetters.readValuesToList()).isEmpty();
        assertThat(parsed()).isEqualTo(2);
    }

    @Test
    void aFormatPublishedForAnotherFrontendDoesNotReadTheLines() throws IOException {
        List<String> json = Arrays.stream(capture("captured.log").split("\n")).filter(l -> l.contains("\"fe\":\"fe_json\"")).toList();

        configs.pipeInput(null, bytes(frontendConfig("web1", "fe_other", jsonFormat())), T0);
        json.forEach(line -> logs.pipeInput(null, bytes(line), T0));

        assertThat(deadLetters.readValuesToList()).extracting(DeadLetter::getReason).containsExactly("unknown_format", "unknown_format");
        assertThat(parsed()).isZero();
    }

    private double parsed() {
        var counter = meters.find(PipelineMetrics.RECORDS).tags("source", Source.HAPROXY.id(), "outcome", "parsed").counter();
        return counter == null ? 0 : counter.count();
    }

    /** fe_json's format as HAProxy holds it once it has read the line: what haproxy.cfg has between the single quotes. */
    private static String jsonFormat() throws IOException {
        String line = Arrays.stream(capture("haproxy.cfg").split("\n")).filter(l -> l.contains("log-format '{")).findFirst()
                .orElseThrow().strip();
        return line.substring("log-format '".length(), line.length() - 1);
    }

    /** An lb-config record as the collector writes it with format=json. */
    private static String frontendConfig(String host, String frontend, String format) {
        ObjectNode c = new ObjectMapper().createObjectNode();
        c.put("kind", "haproxy_frontend").put("id", host + "/" + frontend).put("ts", T0.minusSeconds(60).toString())
                .put("host", host).put("frontend", frontend).put("maxconn", 500).put("log_format", format);
        return c.toString();
    }

    private static String capture(String name) throws IOException {
        try (InputStream in = PublishedLogFormatsTopologyTest.class.getResourceAsStream(CAPTURE + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
