package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.cli.UsageException;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.serde.AlertJson;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.notify.pagerduty.PagerDutyStandIn;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sink against a real in-process broker and the PagerDuty stand-in. */
class SinkAppIT {

    private static final String ROUTING_KEY = "R0UT1NGK3Y0123456789abcdefABCDEF";
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final AtomicInteger RUN = new AtomicInteger();
    private static EmbeddedKafkaBroker kafka;

    private final PagerDutyStandIn pagerDuty = PagerDutyStandIn.start();
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final List<SinkApp> apps = new ArrayList<>();
    private String alertsTopic;
    private String dlqTopic;
    private String groupId;
    private Map<String, Object> serdeConfig;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaBroker.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void topics() {
        int run = RUN.incrementAndGet();
        alertsTopic = "alerts-" + run;
        dlqTopic = "alerts-dlq-" + run;
        groupId = "sink-it-" + run;
        serdeConfig = Map.of("schema.registry.url", "mock://sink-it-" + run);
        kafka.createTopics(2, alertsTopic, dlqTopic);
    }

    @AfterEach
    void stop() {
        apps.forEach(SinkApp::close);
        pagerDuty.close();
    }

    private Properties config() {
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", kafka.bootstrapServers());
        props.setProperty("schema.registry.url", serdeConfig.get("schema.registry.url").toString());
        props.setProperty("group.id", groupId);
        // the delivery machinery, on the alerts dashboards and automation take (IncidentPagingIT pages incidents)
        props.setProperty("deliver", "alerts");
        props.setProperty("alerts.topic", alertsTopic);
        props.setProperty("dlq.topic", dlqTopic);
        props.setProperty("sinks", "pagerduty,stdout");
        props.setProperty("pagerduty.endpoint", pagerDuty.endpoint());
        props.setProperty("retry.initial.backoff.ms", "50");
        props.setProperty("retry.max.backoff.ms", "200");
        props.setProperty("shutdown.grace.ms", "2000");
        props.setProperty("failure.backoff.ms", "200");
        props.setProperty("metrics.host", "127.0.0.1");
        props.setProperty("metrics.port", "0");
        return props;
    }

    private SinkApp start(java.util.function.Function<Map<String, Object>, Consumer<byte[], byte[]>> consumers) {
        SinkApp app = new SinkApp(config(), Map.of("PAGERDUTY_ROUTING_KEY", ROUTING_KEY)::get, consumers,
                new java.io.PrintStream(stdout, true, StandardCharsets.UTF_8));
        apps.add(app);
        app.start();
        return app;
    }

    private void produce(Alert... alerts) throws Exception {
        SpecificAvroSerializer<Alert> serializer = new SpecificAvroSerializer<>();
        serializer.configure(serdeConfig, false);
        try (KafkaProducer<byte[], byte[]> producer = rawProducer()) {
            for (Alert alert : alerts) {
                producer.send(new ProducerRecord<>(alertsTopic, alert.getDedupKey().getBytes(StandardCharsets.UTF_8),
                        serializer.serialize(alertsTopic, alert))).get();
            }
        }
    }

    private KafkaProducer<byte[], byte[]> rawProducer() {
        return new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private long committed() throws Exception {
        try (Admin admin = kafka.admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
            return offsets.values().stream().filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
        }
    }

    private List<ConsumerRecord<byte[], byte[]>> readDeadLetters(int expected) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers", kafka.bootstrapServers(), "group.id", "dlq-reader-" + groupId,
                "auto.offset.reset", "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(dlqTopic));
            await().atMost(PATIENCE).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            });
        }
        return records;
    }

    private static List<String> actions(List<JsonNode> events) {
        return events.stream().map(e -> e.path("event_action").asText() + " " + e.path("dedup_key").asText()).toList();
    }

    /**
     * A dead-letter topic that does not exist (the broker creates none): before, the sink started,
     * and each alert to dead-letter waited max.block.ms and failed, again and again, while /ready said ready.
     */
    @Test
    void aDeadLetterTopicThatDoesNotExistStopsTheStartWithOneLineNamingIt() {
        Properties props = config();
        props.setProperty("dlq.topic", "no-such-dlq-" + RUN.get());
        SinkApp app = new SinkApp(props, Map.of("PAGERDUTY_ROUTING_KEY", ROUTING_KEY)::get, KafkaConsumer::new,
                new java.io.PrintStream(stdout, true, StandardCharsets.UTF_8));
        apps.add(app);

        assertThatThrownBy(app::start).isInstanceOf(UsageException.class)
                .hasMessage("topic no-such-dlq-" + RUN.get() + " does not exist on Kafka at " + kafka.bootstrapServers()
                        + ": create it (docs/contract.md, Topics) or name existing ones");
    }

    /**
     * The cluster starts refusing the sink's login mid-run (credentials rotated, ACL removed). The
     * consumer loop used to end there while the process stayed up: /health 200, /ready 503,
     * nothing delivered, and SinkMain waiting for a shutdown that never came.
     */
    @Test
    void aConsumerThatTheClusterStopsAcceptingEndsTheProcessWithExitOneNotASilentHang() throws Exception {
        MockConsumer<byte[], byte[]> refused = new MockConsumer<>("earliest");
        AtomicInteger polls = new AtomicInteger();
        refused.schedulePollTask(() -> polls.incrementAndGet());
        refused.schedulePollTask(() -> refused.setPollException(
                new SaslAuthenticationException("Authentication failed during authentication due to invalid credentials")));
        SinkApp app = start(settings -> refused);
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = assertTimeoutPreemptively(PATIENCE, () ->
                SinkMain.serve(app, new java.io.PrintStream(err, true, StandardCharsets.UTF_8)));

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("sink stopped: the alert consumer failed: "
                + "SaslAuthenticationException: Authentication failed during authentication due to invalid credentials"
                + System.lineSeparator());
        assertThat(polls.get()).isOne();
        assertThat(app.isReady()).isFalse();
    }

    @Test
    void deliversFiringAndResolvedAlertsFromTheBrokerThroughA503AndCommitsThem() throws Exception {
        pagerDuty.thenRespond(503, 2);
        SinkApp app = start(KafkaConsumer::new);

        produce(Alerts.firing("tg-a"), Alerts.firing("tg-b"), Alerts.resolved("tg-a"), Alerts.resolved("tg-b"));

        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() >= 4);
        assertThat(actions(pagerDuty.accepted())).containsExactlyInAnyOrder(
                "trigger correlated_failure/tg-a", "trigger correlated_failure/tg-b",
                "resolve correlated_failure/tg-a", "resolve correlated_failure/tg-b");
        assertThat(actions(pagerDuty.accepted()).stream().filter(a -> a.endsWith("tg-a")).toList())
                .containsExactly("trigger correlated_failure/tg-a", "resolve correlated_failure/tg-a");
        assertThat(pagerDuty.violations()).isEmpty();
        assertThat(pagerDuty.accepted()).allSatisfy(e -> assertThat(e.path("routing_key").asText()).isEqualTo(ROUTING_KEY));
        await().atMost(PATIENCE).until(() -> committed() == 4);
        assertThat(stdout.toString(StandardCharsets.UTF_8).lines()).hasSize(4)
                .allSatisfy(line -> assertThat(AlertJson.fromJson(line).getType()).isEqualTo("correlated_failure"));

        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + app.metricsPort();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/ready")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(200);
        String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics)
                .contains("hcwatch_sink_alerts_delivered_total{alert_type=\"correlated_failure\",sink=\"pagerduty\"} 4.0")
                .contains("hcwatch_sink_delivery_retries_total{sink=\"pagerduty\",status_class=\"5xx\"} 2.0")
                .contains("hcwatch_sink_delivery_latency_seconds_count");
    }

    @Test
    void sendsA400AndAnUndecodableRecordToTheDeadLetterTopicAndDeliversTheRest() throws Exception {
        String body = "{\"status\":\"invalid event\",\"message\":\"Event object is invalid\",\"errors\":[\"bad summary\"]}";
        pagerDuty.respondWhen(e -> e.path("dedup_key").asText().endsWith("tg-bad"), 400, body);
        start(KafkaConsumer::new);
        byte[] garbage = "not an alert".getBytes(StandardCharsets.UTF_8);

        produce(Alerts.firing("tg-bad"));
        try (KafkaProducer<byte[], byte[]> producer = rawProducer()) {
            producer.send(new ProducerRecord<>(alertsTopic, 0, "k".getBytes(StandardCharsets.UTF_8), garbage)).get();
        }
        produce(Alerts.firing("tg-good"));

        List<ConsumerRecord<byte[], byte[]>> records = readDeadLetters(2);
        SpecificAvroDeserializer<DeadLetter> deserializer = new SpecificAvroDeserializer<>(DeadLetter.class);
        deserializer.configure(serdeConfig, false);
        Map<String, DeadLetter> byReason = new HashMap<>();
        records.forEach(r -> {
            DeadLetter letter = deserializer.deserialize(dlqTopic, r.value());
            byReason.put(letter.getReason(), letter);
        });
        assertThat(byReason).containsOnlyKeys("pagerduty_400", "undecodable");
        DeadLetter rejected = byReason.get("pagerduty_400");
        assertThat(rejected.getSource()).isEqualTo("alerts");
        assertThat(rejected.getTopic()).isEqualTo(alertsTopic);
        assertThat(rejected.getError()).contains("HTTP 400").contains(body);
        SpecificAvroDeserializer<Alert> alerts = new SpecificAvroDeserializer<>(Alert.class);
        alerts.configure(serdeConfig, false);
        byte[] raw = new byte[rejected.getRaw().remaining()];
        rejected.getRaw().get(raw);
        assertThat(alerts.deserialize(alertsTopic, raw)).isEqualTo(Alerts.firing("tg-bad"));
        DeadLetter undecodable = byReason.get("undecodable");
        assertThat(undecodable.getPartition()).isZero();
        assertThat(undecodable.getOffset()).isNotNull();
        assertThat(undecodable.getRaw()).isEqualTo(java.nio.ByteBuffer.wrap(garbage));
        assertThat(undecodable.getError()).contains("not Confluent wire format");

        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() == 1);
        assertThat(actions(pagerDuty.accepted())).containsExactly("trigger correlated_failure/tg-good");
        await().atMost(PATIENCE).until(() -> committed() == 3);
    }

    @Test
    void anAlertDeliveredButNotCommittedBeforeACrashIsDeliveredAgainWithTheSameDedupKey() throws Exception {
        SinkApp crashing = start(props -> new KafkaConsumer<byte[], byte[]>(props) {
            @Override
            public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
                throw new KafkaException("simulated crash between delivery and commit");
            }
        });
        produce(Alerts.firing("tg-crash"));
        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() == 1);
        crashing.close();
        assertThat(committed()).isZero();

        start(KafkaConsumer::new);

        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() == 2);
        assertThat(actions(pagerDuty.accepted())).containsExactly(
                "trigger correlated_failure/tg-crash", "trigger correlated_failure/tg-crash");
        await().atMost(PATIENCE).until(() -> committed() == 1);
        assertThat(pagerDuty.violations()).isEmpty();
    }

    @Test
    void closingDuringARetryAbandonsItUncommittedAndTheNextStartDeliversIt() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        pagerDuty.respondWhen(e -> down.get(), 503, "{\"status\":\"unavailable\"}");
        SinkApp first = start(KafkaConsumer::new);
        produce(Alerts.firing("tg-outage"));
        await().atMost(PATIENCE).until(() -> pagerDuty.statusesSent().size() >= 2);

        // close waits out the 2 s grace, then abandons the retry; the bound only catches a hang
        assertTimeoutPreemptively(PATIENCE, first::close, "close returns once the grace period is over");

        assertThat(first.isReady()).as("the first sink stopped consuming").isFalse();
        assertThat(pagerDuty.statusesSent()).as("every attempt of the abandoned retry failed").containsOnly(503);
        assertThat(committed()).isZero();
        assertThat(pagerDuty.accepted()).isEmpty();

        down.set(false);
        start(KafkaConsumer::new);

        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() == 1);
        await().atMost(PATIENCE).until(() -> committed() == 1);
        assertThat(actions(pagerDuty.accepted())).as("delivered once, by the second sink: the first no longer retries")
                .containsExactly("trigger correlated_failure/tg-outage");
    }
}
