package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The AWS path end to end: {@code collect alb} (the real AWS SDK) polls the loopback ELBv2
 * stand-in and publishes to a real broker, the stream app reads what it published and raises
 * alerts. The stand-in's target group checks every 5 s; the collector polls target health every
 * second; the stream app judges every second ({@code eval.step}). A zone's failure is seen at
 * the next poll; zonal_failure then needs the other zones heard of again (the collector republishes
 * unchanged targets once per check interval, as ALB checks them) and the zone failing for one check
 * interval from that poll (the other zones were clean before it), so it fires within one poll and
 * one check interval (plus a step) of that poll; a timeout cut raises health_check_config_risk at
 * the first step after the poll that saw it.
 */
class AlbToAlertsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long POLL_MS = 1_000;
    private static final long CHECK_INTERVAL_MS = 5_000;
    private static final long STEP_MS = 1_000;

    private final Topics topics = Topics.defaults();
    private EmbeddedKafkaBroker kafka;
    private SchemaRegistryServer registry;
    private ElbStandIn elb;
    private ElbStandIn.Tg web;
    private AlbCollector collector;
    private StreamApp app;
    private Path stateDir;
    private KafkaConsumer<String, Alert> alertReader;
    private KafkaConsumer<String, String> published;
    private final List<Alert> alerts = new CopyOnWriteArrayList<>();
    private final List<JsonNode> checks = new CopyOnWriteArrayList<>();
    private final List<JsonNode> configs = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        kafka = EmbeddedKafkaBroker.start();
        registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
        List<String> names = new ArrayList<>(topics.inputs().values());
        names.add(topics.alerts());
        names.add(topics.incidents());
        names.add(topics.deadLetters());
        kafka.createTopics(1, names);

        elb = new ElbStandIn();
        ElbStandIn.Lb lb = elb.addLb("web-lb", Map.of("us-east-1a", "subnet-8360a9e7", "us-east-1b", "subnet-b7d581c0",
                "us-east-1c", "subnet-c1d2e3f4"));
        web = elb.addTg("web", lb, "ip");
        web.intervalSeconds = (int) (CHECK_INTERVAL_MS / 1000);
        for (int zone = 1; zone <= 3; zone++) {
            for (int k = 0; k < 3; k++) {
                web.add("10.0." + zone + ".1" + k, 8080, "us-east-1" + (char) ('a' + zone - 1));
            }
        }

        stateDir = Files.createTempDirectory("hcwatch-alb-e2e-");
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("application.id", "hcwatch-alb-e2e");
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", stateDir.toString());
        p.setProperty("detect.eval.step", STEP_MS + "ms");
        app = new StreamApp(StreamAppConfig.from(p));
        app.start();
        await("the stream app RUNNING").atMost(Duration.ofSeconds(90)).until(app::isReady);

        alertReader = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.id", "alb-e2e-alerts",
                "auto.offset.reset", "earliest"), new StringDeserializer(),
                SpecificAvroSerde.forValues(Alert.class, Map.of("schema.registry.url", registry.url())).deserializer());
        alertReader.subscribe(List.of(topics.alerts()));
        published = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.id", "alb-e2e-published",
                "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer());
        published.subscribe(List.of(topics.input(Source.HEALTH), topics.input(Source.CONFIG)));

        Properties c = elb.collectorProperties(kafka.bootstrapServers(), "web-lb");
        c.setProperty("aws.timeout.ms", "5000");
        c.setProperty("alb.health.interval.ms", Long.toString(POLL_MS));
        c.setProperty("alb.config.interval.ms", "2000");
        c.setProperty("alb.api.rate", "20");
        collector = new AlbCollector(AlbConfig.read(new ConfigReader(c), () -> null),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSTANDIN", "not-a-secret")));
        collector.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (collector != null) {
            collector.close();
        }
        if (alertReader != null) {
            alertReader.close();
            published.close();
        }
        if (app != null) {
            app.close();
        }
        elb.close();
        registry.close();
        kafka.close();
        try (var walk = Files.walk(stateDir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private void drain() {
        alertReader.poll(Duration.ofMillis(50)).forEach(r -> alerts.add(r.value()));
        published.poll(Duration.ofMillis(50)).forEach(r -> {
            try {
                (r.topic().equals(topics.input(Source.CONFIG)) ? configs : checks).add(JSON.readTree(r.value()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private Alert firing(String dedupKey) {
        return alerts.stream().filter(a -> a.getDedupKey().equals(dedupKey) && a.getStatus() == AlertStatus.firing)
                .findFirst().orElse(null);
    }

    /** Every target published healthy, and a whole check interval watched, so the target group is settled. */
    private void awaitSettled() {
        await("every target published healthy").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            drain();
            assertThat(checks).filteredOn(c -> c.get("state").asText().equals("healthy"))
                    .extracting(c -> c.get("target").asText()).hasSizeGreaterThanOrEqualTo(9);
        });
        long since = System.currentTimeMillis();
        await().pollDelay(Duration.ofMillis(CHECK_INTERVAL_MS + STEP_MS)).atMost(Duration.ofSeconds(30))
                .until(() -> System.currentTimeMillis() - since >= CHECK_INTERVAL_MS + STEP_MS);
    }

    @Test
    void aZonesTargetsTimingOutRaiseZonalFailureWithTheZoneAndTheMaskingVerdictWithinAPollAndACheckInterval() {
        awaitSettled();
        long flippedAt = System.currentTimeMillis();
        for (ElbStandIn.Target t : web.targets) {
            if (t.zone.equals("us-east-1b")) {
                t.set("unhealthy", "Target.Timeout", "Request timed out");
            }
        }
        await("zonal_failure for us-east-1b").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            drain();
            assertThat(firing("zonal_failure/web/us-east-1b")).isNotNull();
        });
        Alert zonal = firing("zonal_failure/web/us-east-1b");
        assertThat(zonal.getScope().getZone()).isEqualTo("us-east-1b");
        assertThat(zonal.getDetails()).containsEntry("zone", "us-east-1b").containsEntry("masked", "true")
                .containsEntry("reason", "Target.Timeout");
        assertThat(zonal.getDetails().get("dns_and_fail_open")).startsWith("cross-zone on: the pool (6/9 healthy)");
        // the poll under way when the targets changed may have read them as they were; the next one sees them
        long seenAt = checks.stream().filter(c -> c.get("state").asText().equals("unhealthy"))
                .mapToLong(c -> Instant.parse(c.get("ts").asText()).toEpochMilli()).min().orElseThrow();
        assertThat(seenAt - flippedAt).isLessThanOrEqualTo(2 * POLL_MS + 500);
        // zonal_failure holds for one check interval from the onset, the other zones being clean
        // before it, and needs every other zone heard of since: the collector republishes an unchanged
        // target at its first poll a check interval after it last published it, so by the onset plus one
        // interval plus one poll (polls are up to 2% late, their jitter); the alert comes at that
        // record or at the first step after the interval, whichever is later
        System.out.printf("zonal_failure fired %d ms (event time) after the poll that saw the zone fail%n",
                zonal.getEventTime().toEpochMilli() - seenAt);
        assertThat(zonal.getEventTime().toEpochMilli() - seenAt).as("from the poll that saw it")
                .isLessThanOrEqualTo(CHECK_INTERVAL_MS + POLL_MS + POLL_MS / 50 + STEP_MS);
        assertThat(alerts).as("no other zone, and the pool meets its thresholds").noneMatch(a ->
                a.getDedupKey().startsWith("zonal_failure/web/us-east-1a") || a.getDedupKey().startsWith("zonal_failure/web/us-east-1c")
                        || a.getType().equals("fail_open_routing") || a.getType().equals("no_healthy_targets"));
    }

    @Test
    void aTimeoutCutToNearTheCheckLatencyRaisesConfigRiskAtThePollThatSeesIt() throws Exception {
        awaitSettled();
        // ALB's health-check log lines (as collect alb-logs ships them) give the check latency: about 1.8 s
        try (KafkaProducer<String, String> logs = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            long until = System.currentTimeMillis() + 12_000;
            int n = 0;
            while (System.currentTimeMillis() < until) {
                for (ElbStandIn.Target t : web.targets) {
                    String line = "http " + Instant.now() + " 1." + (750 + (n++ % 90)) + " " + t.id + ":8080 " + web.arn
                            + " healthy 200 -";
                    logs.send(new ProducerRecord<>(topics.input(Source.ALB_HEALTH), line));
                }
                Thread.sleep(500);
            }
            logs.flush();
        }
        web.timeoutSeconds = 2;
        await("health_check_config_risk").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            drain();
            assertThat(firing("health_check_config_risk/web")).isNotNull();
        });
        Alert risk = firing("health_check_config_risk/web");
        JsonNode cut = configs.stream().filter(c -> c.get("health_check").get("timeout_ms").asInt() == 2_000).findFirst()
                .orElseThrow();
        assertThat(risk.getDetails()).containsEntry("old_timeout_ms", "5000").containsEntry("new_timeout_ms", "2000")
                .containsEntry("changed_at", cut.get("ts").asText());
        assertThat(risk.getSeverity().name()).isEqualTo("critical");
        assertThat(risk.getEventTime().toEpochMilli() - Instant.parse(cut.get("ts").asText()).toEpochMilli())
                .as("judged at the first step after the poll that saw the cut").isBetween(0L, STEP_MS);
        assertThat(Long.parseLong(risk.getDetails().get("peak_p99_ms"))).isBetween(1_750L, 1_850L);
    }
}
