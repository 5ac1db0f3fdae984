package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.ReservedPort;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar as an operator runs it ({@code java -jar collectors/target/hcwatch-collect.jar haproxy
 * --config FILE}), with {@code format=json}, against the real HAProxy and the in-process broker: what
 * the unit tests' classpath cannot show (a dependency missing from the jar) shows here.
 */
class CollectJarIT {

    @TempDir
    Path dir;

    @Test
    void theShadedJarPublishesJsonLimitsAndStatsOfARealHaproxy() throws Exception {
        ExternalTool haproxyTool = ExternalTool.haproxy();
        Path jar = Path.of("target/hcwatch-collect.jar");
        assertThat(jar).as("built by the package phase before integration tests").exists();
        int port = ReservedPort.free();
        Files.writeString(dir.resolve("haproxy.cfg"), "global\n    stats socket " + dir.resolve("admin.sock") + " level admin\n"
                + "    maxconn 300\ndefaults\n    mode http\n    timeout connect 1s\n    timeout client 5s\n    timeout server 5s\n"
                + "frontend fe_web\n    bind 127.0.0.1:" + port + "\n    maxconn 120\n    http-request return status 200\n");
        Process haproxy = haproxyTool.start(dir, dir.resolve("haproxy.log"), "-db", "-f", dir.resolve("haproxy.cfg").toString());
        Process collector = null;
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
            kafka.createTopics(1, "lb-config", "health-check-results", "haproxy-stats");
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(dir.resolve("admin.sock")));
            Path config = dir.resolve("collect.properties");
            Files.writeString(config, "bootstrap.servers=" + kafka.bootstrapServers() + "\nformat=json\nmetrics.port=-1\n"
                    + "haproxy.poll.interval.ms=300\nhaproxy.hosts=local\nhaproxy.host.local.socket=" + dir.resolve("admin.sock")
                    + "\nhaproxy.host.local.name=lb-jar\n");
            collector = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    jar.toString(), "haproxy", "--config", config.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("collector.log").toFile()).start();
            List<ConsumerRecord<String, String>> seen = new CopyOnWriteArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "group.id", "jar-it", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("lb-config", "haproxy-stats"));
                Process running = collector;
                await("JSON lb-config and two stats polls").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                    assertThat(running.isAlive()).as(() -> "collector alive; its log: " + log()).isTrue();
                    assertThat(seen).filteredOn(r -> r.topic().equals("lb-config")).extracting(ConsumerRecord::key)
                            .contains("lb-jar", "lb-jar/fe_web");
                    assertThat(seen).filteredOn(r -> r.topic().equals("haproxy-stats")).hasSizeGreaterThanOrEqualTo(2);
                });
            }
            ObjectMapper json = new ObjectMapper();
            JsonNode limit = json.readTree(seen.stream().filter(r -> "lb-jar/fe_web".equals(r.key())).findFirst().orElseThrow().value());
            assertThat(limit.get("kind").asText()).isEqualTo("haproxy_frontend");
            assertThat(limit.get("maxconn").asInt()).isEqualTo(120);
            assertThat(limit.get("host").asText()).isEqualTo("lb-jar");
            JsonNode stats = json.readTree(seen.stream().filter(r -> r.topic().equals("haproxy-stats")).reduce((a, b) -> b)
                    .orElseThrow().value());
            assertThat(stats.get("host").asText()).isEqualTo("lb-jar");
            assertThat(stats.get("maxconn").asInt()).isEqualTo(300);
            assertThat(stats.get("frontends").get(0).get("slim").asInt()).isEqualTo(120);
            assertThat(stats.get("interval_ms").isNumber()).isTrue();
        } finally {
            if (collector != null) {
                collector.destroy();
                collector.waitFor(20, TimeUnit.SECONDS);
            }
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("collector.log"), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
