package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.notify.pagerduty.PagerDutyStandIn;
import io.hcwatch.testsupport.TestKafkaCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * PagerDuty unreachable for two minutes of wall time — first nothing listens (connection
 * refused), then it answers 503, then 429 — and then recovers: every alert is delivered after
 * the recovery, in order per dedup_key, and none is dead-lettered.
 */
class PagerDutyOutageIT {

    private static final Duration PHASE = Duration.ofSeconds(40);

    @Test
    void aTwoMinuteOutageDelaysDeliveryButLosesAndReordersNothing() throws Exception {
        int port = freePort();
        AtomicInteger failWith = new AtomicInteger(0);
        try (TestKafkaCluster kafka = TestKafkaCluster.start()) {
            kafka.createTopics(2, "alerts", "alerts-dlq");
            Properties p = new Properties();
            p.setProperty("bootstrap.servers", kafka.bootstrapServers());
            p.setProperty("schema.registry.url", "mock://pagerduty-outage-it");
            p.setProperty("group.id", "outage-it");
            p.setProperty("sinks", "pagerduty");
            p.setProperty("pagerduty.endpoint", "http://127.0.0.1:" + port);
            p.setProperty("pagerduty.request.timeout.ms", "2000");
            p.setProperty("retry.initial.backoff.ms", "200");
            p.setProperty("retry.max.backoff.ms", "3000");
            p.setProperty("retry.max.elapsed.ms", "600000");
            p.setProperty("metrics.port", "-1");
            List<Alert> sent = alerts();
            try (SinkApp sink = new SinkApp(p, Map.of("PAGERDUTY_ROUTING_KEY", "R0UT1NGK3Y0123456789abcdefABCDEF")::get,
                    KafkaConsumer::new, new java.io.PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
                sink.start();
                produce(kafka, sent);

                long start = System.nanoTime();
                await().pollDelay(PHASE).atMost(PHASE.plusSeconds(5)).until(() -> true);
                assertThat(sink.isReady()).isTrue();
                try (PagerDutyStandIn pagerDuty = PagerDutyStandIn.start(port)) {
                    pagerDuty.respondWhen(e -> failWith.get() == 503, 503, "{\"status\":\"unavailable\"}");
                    pagerDuty.respondWhen(e -> failWith.get() == 429, 429, "{\"status\":\"throttle event\"}");
                    failWith.set(503);
                    await().pollDelay(PHASE).atMost(PHASE.plusSeconds(5)).until(() -> true);
                    failWith.set(429);
                    await().pollDelay(PHASE).atMost(PHASE.plusSeconds(5)).until(() -> true);
                    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMinutes(2));
                    assertThat(pagerDuty.accepted()).as("nothing gets through while PagerDuty is down").isEmpty();
                    assertThat(pagerDuty.statusesSent()).contains(503, 429);
                    failWith.set(0);

                    await().atMost(Duration.ofSeconds(60)).until(() -> pagerDuty.accepted().size() >= sent.size());
                    assertThat(pagerDuty.violations()).isEmpty();
                    for (String key : List.of("correlated_failure/tg-a", "correlated_failure/tg-b", "correlated_failure/tg-c")) {
                        assertThat(order(pagerDuty.accepted(), key)).as(key)
                                .containsExactly("trigger warning", "trigger critical", "resolve");
                    }
                    assertThat(pagerDuty.accepted()).hasSize(sent.size());
                }
            }
            assertThat(countRecords(kafka, "alerts-dlq")).isZero();
        }
    }

    /** For three target groups: warning, escalation to critical, resolve. */
    private static List<Alert> alerts() {
        List<Alert> out = new ArrayList<>();
        for (String tg : List.of("tg-a", "tg-b", "tg-c")) {
            out.add(Alerts.correlatedFailure(tg).setSeverity(Severity.warning).build());
        }
        for (String tg : List.of("tg-a", "tg-b", "tg-c")) {
            out.add(Alerts.correlatedFailure(tg).setSeverity(Severity.critical).build());
        }
        for (String tg : List.of("tg-a", "tg-b", "tg-c")) {
            out.add(Alerts.correlatedFailure(tg).setStatus(AlertStatus.resolved).build());
        }
        return out;
    }

    private static List<String> order(List<JsonNode> events, String dedupKey) {
        return events.stream().filter(e -> e.path("dedup_key").asText().equals(dedupKey))
                .map(e -> e.path("event_action").asText().equals("trigger")
                        ? "trigger " + e.path("payload").path("severity").asText() : "resolve")
                .toList();
    }

    private static void produce(TestKafkaCluster kafka, List<Alert> alerts) throws Exception {
        SpecificAvroSerializer<Alert> serializer = new SpecificAvroSerializer<>();
        serializer.configure(Map.of("schema.registry.url", "mock://pagerduty-outage-it"), false);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Alert a : alerts) {
                producer.send(new ProducerRecord<>("alerts", a.getDedupKey().getBytes(StandardCharsets.UTF_8),
                        serializer.serialize("alerts", a))).get();
            }
        }
    }

    private static int countRecords(TestKafkaCluster kafka, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "count-" + topic, "auto.offset.reset", "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            int n = 0;
            for (int i = 0; i < 10; i++) {
                n += c.poll(Duration.ofMillis(300)).count();
            }
            return n;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
