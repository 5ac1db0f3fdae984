package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.ManualClock;
import io.hcwatch.sink.notify.SimulatedSleeper;
import io.hcwatch.sink.notify.pagerduty.PagerDutyStandIn;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * PagerDuty away for 30 minutes of simulated time — ten of dropped connections, ten of 503, ten of
 * 429 — with firing and resolved alerts for four dedup_keys queued on two partitions meanwhile.
 * The sink holds both partitions and says so, commits nothing and dead-letters nothing; once
 * PagerDuty answers again every alert goes out, in order per dedup_key, and is committed.
 *
 * <p>Time passes through {@link SimulatedSleeper}: the sink's waits move a {@link ManualClock}, up
 * to a horizon this test sets, so the 30 minutes take no wall time and every step waits on
 * something the test can observe (held sleeps, requests, offsets), never on a fixed delay.
 */
class PagerDutyOutageIT {

    private static final Instant START = Instant.parse("2026-03-03T14:00:00Z");
    private static final Duration OUTAGE = Duration.ofMinutes(30);
    private static final Instant NO_HORIZON = START.plus(Duration.ofDays(365));
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String REGISTRY = "mock://pagerduty-outage-it";
    private static final String ROUTING_KEY = "R0UT1NGK3Y0123456789abcdefABCDEF";
    private static final List<String> GROUPS = List.of("tg-a", "tg-b", "tg-c", "tg-d");
    private static final int PARTITIONS = 2;

    private final ManualClock clock = new ManualClock(START);
    private final SimulatedSleeper sleeper = new SimulatedSleeper(clock, START);
    private final AtomicBoolean down = new AtomicBoolean(true);
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aThirtyMinuteOutageHoldsTheAlertsThenDeliversThemAllInOrderWithNoneDeadLettered() throws Exception {
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(); PagerDutyStandIn pagerDuty = PagerDutyStandIn.start()) {
            kafka.createTopics(PARTITIONS, "alerts", "alerts-dlq");
            pagerDuty.dropWhen(e -> down.get() && outageMinute() < 10)
                    .respondWhen(e -> down.get() && outageMinute() < 20, 503, "{\"status\":\"unavailable\"}")
                    .respondWhen(e -> down.get(), 429, "{\"status\":\"throttle event\"}");
            try (SinkApp sink = new SinkApp(config(kafka, pagerDuty), Map.of("PAGERDUTY_ROUTING_KEY", ROUTING_KEY)::get,
                    KafkaConsumer::new, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    clock, sleeper)) {
                sink.start();

                produce(kafka, firstWave());
                await("each partition holds its first alert at minute 0").atMost(PATIENCE)
                        .until(() -> sleeper.heldAtHorizon() == PARTITIONS);
                produce(kafka, queuedDuringTheOutage());
                sleeper.moveHorizon(START.plus(OUTAGE));
                await("30 simulated minutes of retries, then held at minute 30").atMost(PATIENCE)
                        .until(() -> sleeper.heldAtHorizon() == PARTITIONS);

                assertThat(clock.instant()).isEqualTo(START.plus(OUTAGE));
                assertThat(pagerDuty.accepted()).as("nothing gets through while PagerDuty is down").isEmpty();
                assertThat(pagerDuty.dropped()).isPositive();
                assertThat(pagerDuty.statusesSent()).contains(503, 429).doesNotContain(202);
                assertThat(committed(kafka)).as("no offset committed before delivery").isZero();
                HttpResponse<String> ready = get(sink, "/ready");
                assertThat(ready.statusCode()).as("an outage of PagerDuty does not make the sink unready").isEqualTo(200);
                assertThat(ready.body()).contains("pagerduty: 2 partition(s) waiting for 1800 s on retryable failures")
                        .contains("last failure 429");
                assertThat(get(sink, "/metrics").body())
                        .contains("hcwatch_sink_delivery_blocked_seconds{sink=\"pagerduty\"} 1800.0")
                        .contains("hcwatch_sink_delivery_blocked{sink=\"pagerduty\",status_class=\"429\"} 2.0")
                        .containsPattern("hcwatch_sink_delivery_retries_total\\{sink=\"pagerduty\",status_class=\"network\"} [1-9]")
                        .containsPattern("hcwatch_sink_delivery_retries_total\\{sink=\"pagerduty\",status_class=\"5xx\"} [1-9]")
                        .containsPattern("hcwatch_sink_delivery_retries_total\\{sink=\"pagerduty\",status_class=\"429\"} [1-9]");

                down.set(false);
                sleeper.moveHorizon(NO_HORIZON);

                int expected = GROUPS.size() * 5;
                await("every alert delivered").atMost(PATIENCE).until(() -> pagerDuty.accepted().size() >= expected);
                assertThat(pagerDuty.accepted()).hasSize(expected);
                assertThat(pagerDuty.violations()).isEmpty();
                Map<String, List<String>> perKey = pagerDuty.accepted().stream().collect(Collectors.groupingBy(
                        e -> e.path("dedup_key").asText(), Collectors.mapping(PagerDutyOutageIT::action, Collectors.toList())));
                assertThat(perKey).hasSize(GROUPS.size()).allSatisfy((key, actions) -> assertThat(actions).as(key)
                        .containsExactly("trigger warning", "trigger critical", "resolve", "trigger warning", "resolve"));
                await("every offset committed after delivery").atMost(PATIENCE).until(() -> committed(kafka) == expected);
                assertThat(get(sink, "/ready").body()).isEqualTo("ready\n");
                assertThat(sink.registry().find(DeliveryMetrics.DEAD_LETTERED).counters())
                        .allSatisfy(c -> assertThat(c.count()).as(c.getId().toString()).isZero());
                assertThat(sink.registry().get(DeliveryMetrics.BLOCKED_SECONDS).gauge().value()).isZero();
            }
            assertThat(endOffsets(kafka, "alerts-dlq")).as("records in alerts-dlq").isZero();
        }
    }

    private long outageMinute() {
        return Duration.between(START, clock.instant()).toMinutes();
    }

    private static Properties config(EmbeddedKafkaBroker kafka, PagerDutyStandIn pagerDuty) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", REGISTRY);
        p.setProperty("group.id", "outage-it");
        // the outage is the same whatever is paged; these records are alerts
        p.setProperty("deliver", "alerts");
        p.setProperty("sinks", "pagerduty");
        p.setProperty("pagerduty.endpoint", pagerDuty.endpoint());
        // retry.* left at the defaults (1 s doubling to 60 s): only the clock is simulated
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        return p;
    }

    /** One warning per target group: the first alert of each partition, which the outage then holds. */
    private static List<Alert> firstWave() {
        return GROUPS.stream().map(tg -> Alerts.correlatedFailure(tg).setSeverity(Severity.warning).build()).toList();
    }

    /** Per target group: escalation, resolve, firing again, resolve again. */
    private static List<Alert> queuedDuringTheOutage() {
        List<Alert> out = new ArrayList<>();
        for (String tg : GROUPS) {
            out.add(Alerts.correlatedFailure(tg).setSeverity(Severity.critical).build());
        }
        for (String tg : GROUPS) {
            out.add(Alerts.correlatedFailure(tg).setStatus(AlertStatus.resolved).build());
        }
        for (String tg : GROUPS) {
            out.add(Alerts.correlatedFailure(tg).setSeverity(Severity.warning).build());
        }
        for (String tg : GROUPS) {
            out.add(Alerts.correlatedFailure(tg).setStatus(AlertStatus.resolved).build());
        }
        return out;
    }

    private static String action(JsonNode event) {
        return event.path("event_action").asText().equals("trigger")
                ? "trigger " + event.path("payload").path("severity").asText() : "resolve";
    }

    /** Target groups go to partitions in turn, so both partitions carry alerts whatever the keys hash to. */
    private static void produce(EmbeddedKafkaBroker kafka, List<Alert> alerts) throws Exception {
        SpecificAvroSerializer<Alert> serializer = new SpecificAvroSerializer<>();
        serializer.configure(Map.of("schema.registry.url", REGISTRY), false);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Alert a : alerts) {
                int partition = GROUPS.indexOf(a.getScope().getTargetGroup()) % PARTITIONS;
                producer.send(new ProducerRecord<>("alerts", partition, a.getDedupKey().getBytes(StandardCharsets.UTF_8),
                        serializer.serialize("alerts", a))).get();
            }
        }
    }

    private HttpResponse<String> get(SinkApp sink, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sink.metricsPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long committed(EmbeddedKafkaBroker kafka) throws Exception {
        try (Admin admin = kafka.admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets("outage-it").partitionsToOffsetAndMetadata().get();
            return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
        }
    }

    private static long endOffsets(EmbeddedKafkaBroker kafka, String topic) throws Exception {
        try (Admin admin = kafka.admin()) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get().values().stream().mapToLong(o -> o.offset()).sum();
        }
    }
}
