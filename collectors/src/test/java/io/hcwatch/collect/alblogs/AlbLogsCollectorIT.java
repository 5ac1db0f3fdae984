package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The log collector with the real AWS SDK against the S3 and SQS stand-ins and the in-process
 * broker: objects delivered line by line in order, a redelivered message not produced twice,
 * unreadable objects dead-lettered, and a message kept until Kafka acknowledged its lines.
 */
class AlbLogsCollectorIT {

    static final String BUCKET = "hcwatch-alb-logs";
    static final String DIR = "prod/AWSLogs/123456789012/elasticloadbalancing/us-east-1/2026/12/02/";
    static final String ACCESS_KEY = DIR + "123456789012_elasticloadbalancing_us-east-1_app.web-lb.50dc6c495c0c9188_"
            + "20261202T0735Z_10.0.1.5_2x8f3k1a.log.gz";
    static final String HEALTH_KEY = DIR + "health_check_log_123456789012_elasticloadbalancing_us-east-1_app.web-lb."
            + "50dc6c495c0c9188_20261202T0735Z_10.0.1.5_5hq2bd7s.log";
    static final String BAD_KEY = DIR + "123456789012_elasticloadbalancing_us-east-1_app.web-lb.50dc6c495c0c9188_"
            + "20261202T0740Z_10.0.1.5_broken01.log.gz";
    static final String MISSING_KEY = DIR + "123456789012_elasticloadbalancing_us-east-1_app.web-lb.50dc6c495c0c9188_"
            + "20261202T0740Z_10.0.2.9_gone0001.log.gz";
    static final String CONN_KEY = DIR + "conn_log_123456789012_elasticloadbalancing_us-east-1_app.web-lb.50dc6c495c0c9188_"
            + "20261202T0735Z_10.0.1.5_c0nn0001.log.gz";

    @TempDir
    Path dir;
    private EmbeddedKafkaBroker kafka;
    private S3StandIn s3;
    private SqsStandIn sqs;
    private AlbLogsCollector collector;

    @BeforeEach
    void start() {
        kafka = EmbeddedKafkaBroker.start();
        s3 = new S3StandIn();
        sqs = new SqsStandIn();
    }

    @AfterEach
    void stop() {
        if (collector != null) {
            collector.close();
        }
        sqs.close();
        s3.close();
        kafka.close();
    }

    private void startCollector() {
        startCollector(Map.of());
    }

    private void startCollector(Map<String, String> settings) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("format", "json");
        p.setProperty("metrics.port", "-1");
        p.setProperty("kafka.max.block.ms", "1500");
        p.setProperty("kafka.request.timeout.ms", "3000");
        p.setProperty("kafka.delivery.timeout.ms", "6000");
        p.setProperty("aws.region", "us-east-1");
        p.setProperty("aws.endpoint.s3", s3.endpoint().toString());
        p.setProperty("aws.endpoint.sqs", sqs.endpoint().toString());
        p.setProperty("aws.s3.path-style", "true");
        p.setProperty("alb-logs.queue-url", sqs.endpoint() + "/123456789012/alb-logs");
        p.setProperty("alb-logs.wait.seconds", "1");
        p.setProperty("alb-logs.retry.visibility.seconds", "1");
        p.setProperty("alb-logs.backoff.initial.ms", "200");
        p.setProperty("alb-logs.backoff.max.ms", "1000");
        p.setProperty("alb-logs.state.file", dir.resolve("completed").toString());
        p.putAll(settings);
        AlbLogsConfig config = AlbLogsConfig.read(new ConfigReader(p), () -> null);
        collector = new AlbLogsCollector(config, StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSTANDIN", "not-a-secret")));
        collector.start();
    }

    static String event(String key, String etag) {
        return "{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                + "\"eventTime\":\"2026-12-02T07:35:12.345Z\",\"eventName\":\"ObjectCreated:Put\","
                + "\"userIdentity\":{\"principalId\":\"AWS:AIDAJDPLRKLG7UEXAMPLE\"},"
                + "\"s3\":{\"s3SchemaVersion\":\"1.0\",\"configurationId\":\"alb-logs\",\"bucket\":{\"name\":\"" + BUCKET + "\","
                + "\"ownerIdentity\":{\"principalId\":\"A3NL1KOZZKExample\"},\"arn\":\"arn:aws:s3:::" + BUCKET + "\"},"
                + "\"object\":{\"key\":\"" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/") + "\","
                + "\"size\":1024,\"eTag\":\"" + etag + "\",\"sequencer\":\"0055AED6DCD90281E5\"}}}]}";
    }

    static String key(String name) {
        return DIR + "123456789012_elasticloadbalancing_us-east-1_app.web-lb.50dc6c495c0c9188_20261202T0745Z_10.0.1.5_"
                + name + ".log.gz";
    }

    /** {@code head}, then {@code unit} repeated {@code times} times, then {@code tail}, gzipped as it is written. */
    static byte[] gzipRepeated(String head, String unit, long times, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = unit.repeat(Math.max(1, 65_536 / unit.length())).getBytes(StandardCharsets.UTF_8);
        long perChunk = chunk.length / unit.length();
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 65_536)) {
            gz.write(head.getBytes(StandardCharsets.UTF_8));
            for (long done = 0; done < times; done += perChunk) {
                gz.write(chunk, 0, (int) (Math.min(perChunk, times - done) * unit.length()));
            }
            gz.write(tail.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private List<JsonNode> deadLetters(int atLeast) {
        ObjectMapper json = new ObjectMapper();
        return readAll("telemetry-dlq", atLeast).stream().map(r -> {
            try {
                return json.readTree(r.value());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    static byte[] gzip(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static List<String> accessLines(int n) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add("https 2026-12-02T07:3" + (i % 10) + ":00.0" + String.format("%05d", i) + "Z app/web-lb/50dc6c495c0c9188 "
                    + "192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET https://www.example.com:443/p/"
                    + i + " HTTP/1.1\" \"curl/7.46.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 "
                    + "arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/73e2d6bc24d8a067 "
                    + "\"Root=1-58337281-1d84f3d73c47ec4e58577259\" \"www.example.com\" \"arn:aws:acm:us-east-1:123456789012:"
                    + "certificate/12345678-1234-1234-1234-123456789012\" 1 2026-12-02T07:30:00.000000Z \"authenticate,forward\" "
                    + "\"-\" \"-\" \"10.0.0.1:80\" \"200\" \"-\" \"-\" TID_" + i);
        }
        return lines;
    }

    private List<ConsumerRecord<String, byte[]>> readAll(String topic, int atLeast) {
        List<ConsumerRecord<String, byte[]>> out = new CopyOnWriteArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "logs-it-" + topic + System.nanoTime(), "auto.offset.reset", "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            c.subscribe(List.of(topic));
            await(atLeast + " records on " + topic).atMost(Duration.ofSeconds(30)).until(() -> {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
                return out.size() >= atLeast;
            });
            // and nothing more than what the broker holds now
            long end = c.endOffsets(c.assignment()).values().stream().mapToLong(Long::longValue).sum();
            assertThat(end).as("records on " + topic).isEqualTo(out.size());
        }
        return out;
    }

    private double metric(String name, String tag, String value) {
        var counter = collector.registry().find(name).tag(tag, value).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void objectsAreDeliveredInOrderRedeliveriesAreNotProducedTwiceAndUnreadableObjectsAreDeadLettered() {
        kafka.createTopics(3, "alb-access-logs", "alb-health-check-logs", "telemetry-dlq");
        List<String> access = accessLines(50);
        String accessEtag = s3.put(BUCKET, ACCESS_KEY, gzip(String.join("\n", access) + "\n"));
        List<String> health = List.of(
                "http 2026-12-02T07:32:47.130000Z 2.001 10.0.2.31:8080 arn:aws:elasticloadbalancing:us-east-1:123456789012:"
                        + "targetgroup/web/73e2d6bc24d8a067 unhealthy - Target.Timeout",
                "http 2026-12-02T07:32:48.002000Z 0.004 10.0.1.31:8080 arn:aws:elasticloadbalancing:us-east-1:123456789012:"
                        + "targetgroup/web/73e2d6bc24d8a067 healthy 200 -");
        String healthEtag = s3.put(BUCKET, HEALTH_KEY, (String.join("\n", health) + "\n").getBytes(StandardCharsets.UTF_8));
        byte[] broken = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 'n', 'o', 't', ' ', 'd', 'e', 'f', 'l', 'a', 't', 'e'};
        String badEtag = s3.put(BUCKET, BAD_KEY, broken);
        s3.put(BUCKET, CONN_KEY, gzip("h2 2026-12-02T07:35:00Z 192.168.1.1 443\n"));
        sqs.send("{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\",\"Time\":\"2026-12-02T07:30:00.000Z\",\"Bucket\":\""
                + BUCKET + "\",\"RequestId\":\"5582815E1AEA5ADF\",\"HostId\":\"8cLeGAmw098X5cv4Zkwcmo8vvZa3eH3eKxsPzbB9wrR+\"}");
        SqsStandIn.Msg accessMsg = sqs.send(event(ACCESS_KEY, accessEtag));
        sqs.send(event(HEALTH_KEY, healthEtag));
        sqs.send(event(BAD_KEY, badEtag));
        sqs.send(event(MISSING_KEY, "d41d8cd98f00b204e9800998ecf8427e"));
        sqs.send(event(CONN_KEY, "0123456789abcdef0123456789abcdef"));
        startCollector();

        await("every message deleted").atMost(Duration.ofSeconds(60))
                .until(() -> sqs.messages.stream().allMatch(m -> m.deleted));
        List<ConsumerRecord<String, byte[]>> accessRecords = readAll("alb-access-logs", 50);
        assertThat(accessRecords).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactlyElementsOf(access);
        assertThat(accessRecords).extracting(ConsumerRecord::key).containsOnly(ACCESS_KEY);
        assertThat(accessRecords).extracting(ConsumerRecord::partition).as("one partition: the lines keep their order")
                .containsOnly(accessRecords.get(0).partition());
        assertThat(readAll("alb-health-check-logs", 2)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(health);
        List<JsonNode> letters = deadLetters(2);
        assertThat(letters).anySatisfy(l -> {
            assertThat(l.get("source").asText()).isEqualTo("alb");
            assertThat(l.get("reason").asText()).isEqualTo("bad_gzip");
            assertThat(l.get("topic").asText()).isEqualTo("alb-access-logs");
            assertThat(l.get("error").asText()).startsWith("s3://" + BUCKET + "/" + BAD_KEY + ": not a readable gzip file");
            assertThat(l.get("raw").isNull()).as("a small object travels with its dead letter").isFalse();
        });
        assertThat(letters).anySatisfy(l -> {
            assertThat(l.get("reason").asText()).isEqualTo("s3_not_found");
            assertThat(l.get("error").asText()).contains("s3://" + BUCKET + "/" + MISSING_KEY, "NoSuchKey");
        });
        assertThat(metric("hcwatch.collector.messages", "outcome", "test_event")).isEqualTo(1);
        assertThat(metric("hcwatch.collector.objects", "outcome", "skipped")).as("the connection log").isEqualTo(1);
        assertThat(s3.gets).noneMatch(g -> g.endsWith(CONN_KEY));

        // S3 notifies again, or the delete was lost: the same object version is not produced twice
        SqsStandIn.Msg again = sqs.send(accessMsg.body);
        await("the redelivered message deleted").atMost(Duration.ofSeconds(30)).until(() -> again.deleted);
        assertThat(metric("hcwatch.collector.objects", "outcome", "duplicate")).isEqualTo(1);
        assertThat(readAll("alb-access-logs", 50)).hasSize(50);
        assertThat(s3.gets.stream().filter(g -> g.endsWith(ACCESS_KEY)).count()).as("not even fetched again").isEqualTo(1);
    }

    @Test
    void aMessageStaysInTheQueueUntilKafkaHasAcknowledgedEveryLineOfItsObject() {
        kafka.createTopics(1, "alb-health-check-logs", "telemetry-dlq");
        // alb-access-logs does not exist and the broker creates no topics: every send fails
        List<String> access = accessLines(20);
        String etag = s3.put(BUCKET, ACCESS_KEY, gzip(String.join("\n", access)));
        SqsStandIn.Msg msg = sqs.send(event(ACCESS_KEY, etag));
        startCollector();

        await("the message handed back for a later try").atMost(Duration.ofSeconds(60))
                .until(() -> sqs.count("ChangeMessageVisibility") >= 2 && msg.receives >= 2);
        assertThat(msg.deleted).isFalse();
        assertThat(sqs.count("DeleteMessage")).isZero();
        assertThat(metric("hcwatch.collector.objects", "outcome", "retried")).isGreaterThanOrEqualTo(2);
        // registered at 0 when the collector starts, so that an alert rule's increase() sees the first one
        var deadLettered = collector.registry().find("hcwatch.collector.objects").tag("outcome", "dead_lettered").counter();
        assertThat(deadLettered).isNotNull();
        assertThat(deadLettered.count()).isZero();
        assertThat(collector.registry().scrape())
                .contains("hcwatch_collector_publish_errors_total{reason=\"serialize\",topic=\"telemetry-dlq\"} 0.0");

        kafka.createTopics(1, "alb-access-logs");
        await("delivered and deleted once Kafka takes it").atMost(Duration.ofSeconds(60)).until(() -> msg.deleted);
        assertThat(readAll("alb-access-logs", 20)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(access);
    }

    @Test
    void aHundredMegabyteLineIsDeadLetteredWithItsObjectAndTheObjectsOtherLinesAreDelivered() {
        kafka.createTopics(1, "alb-access-logs", "alb-health-check-logs", "telemetry-dlq");
        String key = key("longline");
        List<String> lines = accessLines(3);
        // 100 MB of one line, about 100 KB as S3 holds it
        byte[] object = gzipRepeated(lines.get(0) + "\n" + lines.get(1) + "\n", "a", 100L << 20, "\n" + lines.get(2) + "\n");
        SqsStandIn.Msg msg = sqs.send(event(key, s3.put(BUCKET, key, object)));
        startCollector();

        await("the message deleted").atMost(Duration.ofSeconds(90)).until(() -> msg.deleted);
        assertThat(readAll("alb-access-logs", 3)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactlyElementsOf(lines);
        assertThat(deadLetters(1)).singleElement().satisfies(l -> {
            assertThat(l.get("reason").asText()).isEqualTo("line_too_long");
            assertThat(l.get("source").asText()).isEqualTo("alb");
            assertThat(l.get("topic").asText()).isEqualTo("alb-access-logs");
            assertThat(l.get("error").asText()).startsWith("s3://" + BUCKET + "/" + key + ": line 3 is 104857600 bytes");
        });
        assertThat(metric("hcwatch.collector.objects", "outcome", "delivered")).isEqualTo(1);
    }

    @Test
    void aGzipBombAndAnObjectOverItsSizeLimitAreDeadLetteredWithTheirBucketAndKey() {
        kafka.createTopics(1, "alb-access-logs", "alb-health-check-logs", "telemetry-dlq");
        String bombKey = key("gzipbomb");
        String bigKey = key("bigobject");
        String fineKey = key("fine0001");
        // 64 MB of lines in about 330 KB; the collector stops at 2 MiB
        String line = accessLines(6).get(5);
        byte[] bomb = gzipRepeated("", line + "\n", (64L << 20) / (line.length() + 1), "");
        // plain text over 1 MiB as stored
        byte[] big = (String.join("\n", accessLines(3_000)) + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(bomb.length).isLessThan(1 << 20);
        assertThat(big.length).isGreaterThan(1 << 20);
        List<String> fine = accessLines(5);
        SqsStandIn.Msg bombMsg = sqs.send(event(bombKey, s3.put(BUCKET, bombKey, bomb)));
        SqsStandIn.Msg bigMsg = sqs.send(event(bigKey, s3.put(BUCKET, bigKey, big)));
        SqsStandIn.Msg fineMsg = sqs.send(event(fineKey, s3.put(BUCKET, fineKey, gzip(String.join("\n", fine)))));
        startCollector(Map.of("alb-logs.max-object-mib", "1", "alb-logs.max-decompressed-mib", "2"));

        await("every message deleted").atMost(Duration.ofSeconds(90))
                .until(() -> bombMsg.deleted && bigMsg.deleted && fineMsg.deleted);
        List<JsonNode> letters = deadLetters(2);
        assertThat(letters).hasSize(2);
        assertThat(letters).anySatisfy(l -> {
            assertThat(l.get("reason").asText()).isEqualTo("decompressed_too_large");
            assertThat(l.get("error").asText()).startsWith("s3://" + BUCKET + "/" + bombKey + ": over 2097152 bytes decompressed");
        });
        assertThat(letters).anySatisfy(l -> {
            assertThat(l.get("reason").asText()).isEqualTo("object_too_large");
            assertThat(l.get("error").asText()).startsWith("s3://" + BUCKET + "/" + bigKey + ": " + big.length + " bytes");
        });
        // the bomb's lines that end within its first 2 MiB go out before the limit stops it
        int beforeTheLimit = (2 << 20) / (line.length() + 1);
        List<String> delivered = readAll("alb-access-logs", fine.size() + beforeTheLimit).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        assertThat(delivered).containsSubsequence(fine);
        assertThat(delivered).filteredOn(line::equals).hasSize(beforeTheLimit);
        assertThat(metric("hcwatch.collector.objects", "outcome", "dead_lettered")).isEqualTo(2);
    }

    @Test
    void anObjectKafkaRefusesEveryTimeIsDeadLetteredAfterABoundedNumberOfAttempts() {
        kafka.createTopics(1, "alb-health-check-logs", "telemetry-dlq");
        // the topic takes records of up to 2,000 bytes: a 3,000-byte line is refused whatever the collector does
        kafka.createTopics(1, List.of("alb-access-logs"), Map.of("max.message.bytes", "2000"));
        String key = key("poison01");
        List<String> lines = accessLines(2);
        String object = lines.get(0) + "\n" + "b".repeat(3_000) + "\n" + lines.get(1) + "\n";
        SqsStandIn.Msg msg = sqs.send(event(key, s3.put(BUCKET, key, gzip(object))));
        startCollector(Map.of("alb-logs.max-attempts", "3"));

        await("the poison message deleted").atMost(Duration.ofSeconds(90)).until(() -> msg.deleted);
        assertThat(msg.receives).isEqualTo(3);
        assertThat(deadLetters(1)).singleElement().satisfies(l -> {
            assertThat(l.get("reason").asText()).isEqualTo("too_many_attempts");
            assertThat(l.get("error").asText()).startsWith("s3://" + BUCKET + "/" + key + ": failed 3 times")
                    .contains("RecordTooLargeException");
        });
        assertThat(metric("hcwatch.collector.objects", "outcome", "retried")).isEqualTo(2);
    }
}
