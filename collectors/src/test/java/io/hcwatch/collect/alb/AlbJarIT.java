package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hcwatch.kafka.EmbeddedKafkaBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar hcwatch-collect.jar alb} as an operator runs it, credentials from the
 * environment: what the test classpath cannot show (an SDK service file or HTTP client missing from
 * the shaded jar) shows here, and the secret key given in the environment stays out of its output.
 */
class AlbJarIT {

    private static final String SECRET = "hcwatchJARsecretKEY0123456789abcdefghSECRET";

    @TempDir
    Path dir;

    @Test
    void theShadedJarPollsTheStandInWithCredentialsFromTheEnvironment() throws Exception {
        Path jar = Path.of("target/hcwatch-collect.jar");
        assertThat(jar).as("built by the package phase before integration tests").exists();
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(); ElbStandIn elb = new ElbStandIn()) {
            kafka.createTopics(1, "lb-config", "health-check-results");
            ElbStandIn.Lb lb = elb.addLb("web-lb", Map.of("us-east-1a", "subnet-1"));
            elb.addTg("web", lb, "ip").add("10.0.1.10", 8080, "us-east-1a");
            Properties p = elb.collectorProperties(kafka.bootstrapServers(), "web-lb");
            p.setProperty("alb.health.interval.ms", "1000");
            Path config = dir.resolve("alb.properties");
            try (var out = Files.newBufferedWriter(config)) {
                p.store(out, null);
            }
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Daws.disableEc2Metadata=true", "-jar", jar.toString(), "alb", "--config", config.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("collector.log").toFile());
            pb.environment().put("AWS_ACCESS_KEY_ID", "AKIDJARTEST");
            pb.environment().put("AWS_SECRET_ACCESS_KEY", SECRET);
            pb.environment().remove("AWS_PROFILE");
            Process collector = pb.start();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    "group.id", "alb-jar-it", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("lb-config", "health-check-results"));
                List<String> seen = new CopyOnWriteArrayList<>();
                await("a config and a result from the jar").atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(r -> seen.add(r.topic() + " " + r.value()));
                    assertThat(collector.isAlive()).as(() -> "collector alive; its log: " + log()).isTrue();
                    assertThat(seen).anyMatch(s -> s.startsWith("lb-config ") && s.contains("\"id\":\"web\""));
                    assertThat(seen).anyMatch(s -> s.startsWith("health-check-results ") && s.contains("10.0.1.10:8080"));
                });
            } finally {
                collector.destroy();
                collector.waitFor();
            }
            assertThat(elb.served).isNotEmpty();
            assertThat(log()).contains("alb: region us-east-1").doesNotContain(SECRET);
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("collector.log"));
        } catch (java.io.IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
