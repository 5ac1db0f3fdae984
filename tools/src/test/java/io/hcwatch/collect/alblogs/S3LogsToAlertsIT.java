package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.config.Settings;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.simulate.AwsDelivery;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioParams;
import io.hcwatch.simulate.Simulation;
import io.hcwatch.simulate.Telemetry;
import io.hcwatch.simulate.TelemetryFiles;
import io.hcwatch.simulate.TelemetryProducer;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.Gauge;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * ALB's logs from S3 end to end on a real broker: the simulator's zonal-gray-failure as an AWS
 * account delivers it (the collector's records as they happen, ALB's logs as 5-minute gzip objects
 * per node, each minutes after its period), the objects served by the loopback S3 stand-in and
 * announced on the SQS stand-in, read by the real {@code collect alb-logs} code (real AWS SDK) into
 * the in-process broker, the stream app running live with {@code window.source-delay}. Its alerts
 * must be replay's on the same files, no record late, nothing dead-lettered; once with the ELBv2
 * collector's records (zones from its target→zone map) and once without them, zones only from a
 * hand-written LbConfig's {@code zone_cidrs}.
 *
 * <p>Time runs at six times the demo's speed (72 simulated seconds a second): what is compared is
 * event time, and the collector's margin is the same 5 s of wall time at any speed. The comparison covers event
 * time up to the end of the scenario proper: the simulation runs a source delay longer, as the
 * demo's does, so live judges that far without waiting a source delay of wall time for the last
 * objects; the test waits on the monitors' watermarks (bounded), then stops the app, which flushes
 * what it judged, and reads the alerts topic to its end.
 */
class S3LogsToAlertsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Scenario SCENARIO = Scenario.ZONAL_GRAY_FAILURE;
    private static final String BUCKET = AlbLogsCollectorIT.BUCKET;
    /** Simulated seconds per wall second. */
    private static final double SPEED = 6 * SCENARIO.demoSpeed();
    /**
     * Beyond the longest delivery lag the simulator gives objects, what {@code collect alb-logs}
     * itself adds (SQS receive, GetObject, produce): 5 s of wall time, in simulated time.
     * Production sets 10 minutes for 5-minute objects delivered within about 5 (README).
     */
    private static final long COLLECTOR_MARGIN_MS = Math.round(5_000 * SPEED);

    private final Topics topics = Topics.defaults();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void stopAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @Test
    void withTheElbCollectorLiveOnS3ObjectsRaisesWhatReplayRaises() throws Exception {
        compare(Function.identity());
    }

    @Test
    void withoutTheElbCollectorZonesFromHandWrittenCidrsLiveRaisesWhatReplayRaises() throws Exception {
        compare(S3LogsToAlertsIT::withoutTheElbCollector);
    }

    /** @param feed what of the AWS path reaches hcwatch (null drops a record) */
    private void compare(Function<Telemetry, Telemetry> feed) throws Exception {
        ScenarioParams demo = SCENARIO.demoParams().withAlbRequestsPerSecond(10).withHaproxyRequestsPerSecond(0);
        long delay = AwsDelivery.longestDelayMillis(demo.zones()) + COLLECTOR_MARGIN_MS;
        long cut = demo.start().plus(demo.duration()).toEpochMilli();
        ScenarioParams params = demo.withTiming(demo.duration().plusMillis(delay), demo.onset());
        Settings settings = Settings.defaults().with(Map.of("window.source-delay", "alb=" + delay + "ms,alb-health=" + delay + "ms"));

        // the files: the collector's records as `simulate --aws --out` writes them, the S3 objects under s3/
        AwsDelivery delivery = new AwsDelivery(params.zones());
        try (TelemetryFiles files = new TelemetryFiles(dir, false)) {
            Simulation.ofAws(SCENARIO, params).run(t -> {
                Telemetry fed = feed.apply(t);
                if (fed == null) {
                    return;
                }
                delivery.accept(fed);
                if (fed.source() != Source.ALB && fed.source() != Source.ALB_HEALTH) {
                    files.accept(fed);
                }
            });
        }
        Path s3Dir = dir.resolve("s3");
        delivery.writeObjects(s3Dir);

        List<Alert> replayed = replay(delivery, s3Dir, settings);
        Map<String, Course> expected = courses(replayed, cut);
        String zone = "us-east-1b";
        assertThat(expected).as("replay raises the scenario's zonal failure, masked")
                .containsKey("zonal_failure/prod-web-tg/" + zone);
        assertThat(replayed).filteredOn(a -> a.getDedupKey().equals("zonal_failure/prod-web-tg/" + zone))
                .allSatisfy(a -> assertThat(a.getDetails()).containsEntry("masked", "true"));

        Live live = live(delivery, s3Dir, params, delay, cut);
        Map<String, Course> lived = courses(live.alerts, cut);
        System.out.printf("%d S3 objects; replay: %s%nlive: %s%n", delivery.objects().size(), expected, lived);
        assertThat(lived.keySet()).as("alerts by dedup key").isEqualTo(expected.keySet());
        expected.forEach((key, r) -> {
            Course l = lived.get(key);
            assertThat(l.rest()).as(key).isEqualTo(r.rest());
            assertThat(Math.abs(l.firstFiring() - r.firstFiring())).as(key + " first fires within a second").isLessThan(1_000);
        });
        assertThat(live.late).as("records counted late").isZero();
        assertThat(live.deadLetters).as("telemetry-dlq").isEmpty();
    }

    /**
     * The AWS path for a user without {@code collect alb}: no HealthCheckResult (states come from
     * the health-check logs), and target groups' configs written by hand, with each zone's subnet
     * instead of the collector's target→zone map.
     */
    private static Telemetry withoutTheElbCollector(Telemetry t) {
        if (t.source() == Source.HEALTH) {
            return null;
        }
        if (t.source() != Source.CONFIG) {
            return t;
        }
        try {
            ObjectNode config = (ObjectNode) JSON.readTree(t.value());
            JsonNode zones = config.remove("target_zones");
            if (zones == null || zones.isNull()) {
                return t;
            }
            // the operator writes the /24 subnets the target group's targets live in, by zone
            Map<String, java.util.Set<String>> cidrs = new TreeMap<>();
            zones.fields().forEachRemaining(e -> {
                String ip = e.getKey();
                if (!ip.contains(":")) {
                    cidrs.computeIfAbsent(e.getValue().asText(), z -> new java.util.TreeSet<>())
                            .add(ip.substring(0, ip.lastIndexOf('.')) + ".0/24");
                }
            });
            ObjectNode byZone = config.putObject("zone_cidrs");
            cidrs.forEach((zone, list) -> list.forEach(byZone.withArray(zone)::add));
            return new Telemetry(t.source(), t.eventTimeMillis(), JSON.writeValueAsBytes(config), t.key());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<Alert> replay(AwsDelivery delivery, Path s3Dir, Settings settings) {
        ReplayInputs inputs = new ReplayInputs();
        for (Source s : List.of(Source.HEALTH, Source.CONFIG)) {
            Path file = dir.resolve(TelemetryFiles.fileName(s, false));
            if (Files.exists(file)) {
                inputs.add(s, file);
            }
        }
        for (AwsDelivery.LogObject o : delivery.objects()) {
            inputs.add(o.source(), s3Dir.resolve(o.key()));
        }
        List<Object> deadLetters = new ArrayList<>();
        List<Alert> alerts = new ReplayRun(inputs, settings, Clock.systemUTC()).run(deadLetters::add, new ReplaySummary());
        assertThat(deadLetters).as("replay's dead letters").isEmpty();
        return alerts;
    }

    private record Live(List<Alert> alerts, double late, List<String> deadLetters) {
    }

    private Live live(AwsDelivery delivery, Path s3Dir, ScenarioParams params, long delay, long cut) throws Exception {
        // the scenario's event times lie in the past: time-based retention would delete them as they arrive
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(Map.of("log.retention.ms", "-1"));
        resources.add(kafka);
        List<String> names = new ArrayList<>();
        for (Source s : Source.values()) {
            if (s != Source.CONFIG) {
                names.add(topics.input(s));
            }
        }
        names.addAll(List.of(topics.alerts(), topics.incidents(), topics.deadLetters()));
        kafka.createTopics(1, names, Map.of("retention.ms", "-1"));
        kafka.createTopics(1, List.of(topics.input(Source.CONFIG)), Map.of("cleanup.policy", "compact"));
        SchemaRegistryServer registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
        resources.add(registry);

        Path stateDir = Files.createDirectories(dir.resolve("state"));
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("application.id", "hcwatch-s3-logs-e2e");
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", stateDir.toString());
        // event time runs faster than the wall clock: wall-clock silence would misread it (as in the demo)
        p.setProperty("detect.silence.enabled", "false");
        p.setProperty("detect.window.source-delay", "alb=" + delay + "ms,alb-health=" + delay + "ms");
        p.setProperty("streams.num.stream.threads", "1");
        StreamApp app = new StreamApp(StreamAppConfig.from(p));
        resources.add(app);
        app.start();
        await("the stream app RUNNING").atMost(Duration.ofSeconds(90)).until(app::isReady);

        S3StandIn s3 = new S3StandIn();
        resources.add(s3);
        SqsStandIn sqs = new SqsStandIn();
        resources.add(sqs);
        AlbLogsCollector collector = new AlbLogsCollector(collectorConfig(kafka, s3, sqs),
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSTANDIN", "not-a-secret")));
        resources.add(collector);
        collector.start();

        long simStart = params.start().toEpochMilli();
        try (TelemetryProducer producer = new TelemetryProducer(kafka.bootstrapServers(), topics, Map.of())) {
            producer.produce(delivery.deliveries(), simStart, SPEED, () -> false, d -> { }, o -> {
                try {
                    String etag = s3.put(BUCKET, o.key(), Files.readAllBytes(s3Dir.resolve(o.key())));
                    sqs.send(AlbLogsCollectorIT.event(o.key(), etag));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        // a message is deleted only once Kafka acknowledged every line of its object
        await("every object's lines in Kafka").atMost(Duration.ofSeconds(60))
                .until(() -> sqs.messages.stream().allMatch(m -> m.deleted));
        assertThat(sqs.messages).hasSize(delivery.objects().size());
        await("every monitor judged up to the end of the scenario").atMost(Duration.ofSeconds(60))
                .until(() -> judgedUpTo(app) >= cut);
        double late = app.registry().find("hcwatch.records.late").counters().stream().mapToDouble(c -> c.count()).sum();
        // collect alb-logs produces the lines when it reads them, months after the simulated events: the ingest sees it
        assertThat(app.registry().get("hcwatch.source.record.lag").tag("source", "alb").gauge().value())
                .as("alb's record lag, seconds").isGreaterThan(120);
        // closing commits: everything judged is on the alerts topic
        app.close();

        Map<String, Object> serde = Map.of("schema.registry.url", registry.url());
        List<Alert> alerts = readAll(kafka, topics.alerts(), SpecificAvroSerde.forValues(Alert.class, serde).deserializer())
                .stream().map(ConsumerRecord::value).toList();
        List<String> deadLetters = readAll(kafka, topics.deadLetters(), new ByteArrayDeserializer()).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        return new Live(alerts, late, deadLetters);
    }

    private AlbLogsConfig collectorConfig(EmbeddedKafkaBroker kafka, S3StandIn s3, SqsStandIn sqs) {
        Properties c = new Properties();
        c.setProperty("bootstrap.servers", kafka.bootstrapServers());
        c.setProperty("format", "json");
        c.setProperty("metrics.port", "-1");
        c.setProperty("aws.region", "us-east-1");
        c.setProperty("aws.endpoint.s3", s3.endpoint().toString());
        c.setProperty("aws.endpoint.sqs", sqs.endpoint().toString());
        c.setProperty("aws.s3.path-style", "true");
        c.setProperty("alb-logs.queue-url", sqs.endpoint() + "/123456789012/hcwatch-alb-logs");
        c.setProperty("alb-logs.wait.seconds", "1");
        c.setProperty("alb-logs.state.file", dir.resolve("alb-logs.completed").toString());
        return AlbLogsConfig.read(new ConfigReader(c), () -> null);
    }

    /** Event time every monitor has judged up to: the oldest watermark, from the wall time since it. */
    /**
     * The slowest watermark of the monitors the AWS path paces. Not the host monitor's: only HAProxy
     * paces it, which sends nothing here, so its watermark moves with the LbConfigs it is sent alone
     * (wherever the last one fell) and says nothing about how far the ALB's records were judged.
     */
    private static long judgedUpTo(StreamApp app) {
        long now = System.currentTimeMillis();
        double worst = app.registry().find("hcwatch.watermark.delay").gauges().stream()
                .filter(g -> !"host".equals(g.getId().getTag("monitor"))).mapToDouble(Gauge::value).max()
                .orElse(Double.MAX_VALUE);
        return now - Math.round(worst * 1000);
    }

    private static <V> List<ConsumerRecord<String, V>> readAll(EmbeddedKafkaBroker kafka, String topic, Deserializer<V> values) {
        List<ConsumerRecord<String, V>> out = new ArrayList<>();
        try (KafkaConsumer<String, V> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "auto.offset.reset", "earliest", "enable.auto.commit", "false"), new StringDeserializer(), values)) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            await("all of " + topic).atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
                return parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp));
            });
        }
        return out;
    }

    /** One alert's course up to the cut: first firing, and its episodes, zone, worst severity and state at the cut. */
    private record Course(long firstFiring, List<String> rest) {
    }

    private static Map<String, Course> courses(List<Alert> alerts, long cut) {
        Map<String, List<Alert>> byKey = new TreeMap<>();
        alerts.stream().filter(a -> a.getEventTime().toEpochMilli() <= cut)
                .sorted(Comparator.comparing(Alert::getEventTime))
                .forEach(a -> byKey.computeIfAbsent(a.getDedupKey(), k -> new ArrayList<>()).add(a));
        Map<String, Course> out = new TreeMap<>();
        byKey.forEach((key, notes) -> {
            long first = notes.stream().filter(a -> a.getStatus() == AlertStatus.firing)
                    .mapToLong(a -> a.getEventTime().toEpochMilli()).min().orElse(-1);
            String worst = notes.stream().map(Alert::getSeverity).min(Comparator.naturalOrder()).orElseThrow().name();
            out.put(key, new Course(first, List.of("episodes:" + notes.stream().map(Alert::getAlertId).distinct().count(),
                    "zone:" + notes.get(0).getScope().getZone(), "worst:" + worst,
                    "at the cut:" + notes.get(notes.size() - 1).getStatus())));
        });
        return out;
    }
}
