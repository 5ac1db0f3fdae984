package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.cli.UsageException;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the stream app checks at start on a real broker (which creates no topics): every topic it
 * reads or writes exists (before, a missing source topic stopped Kafka Streams in its own time and a
 * missing sink topic blocked each send), and the dead-letter topic's record size limit, to which
 * every dead letter is then cut (before, a dead letter above a topic's smaller limit failed the
 * producer and replaced the stream thread, which wrote the same dead letter again, forever).
 */
class StartupTopicsIT {

    private static final String SCOPE = "startup-topics-it";
    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static EmbeddedKafkaBroker kafka;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaBroker.start();
    }

    @AfterAll
    static void stopKafka() {
        kafka.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    /** Every topic of {@code topics} but {@code left out}, created; a config naming them. */
    private Properties cluster(String name, Topics topics, List<String> leftOut, Map<String, String> dlqConfig) {
        List<String> names = new ArrayList<>();
        for (Source s : Source.values()) {
            names.add(topics.input(s));
        }
        names.addAll(List.of(topics.alerts(), topics.incidents()));
        names.removeAll(leftOut);
        kafka.createTopics(1, names);
        if (!leftOut.contains(topics.deadLetters())) {
            kafka.createTopics(1, List.of(topics.deadLetters()), dlqConfig);
        }
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", "mock://" + SCOPE);
        p.setProperty("application.id", "hcwatch-" + name);
        p.setProperty("metrics.port", "-1");
        p.setProperty("state.dir", tmp.resolve(name).toString());
        for (Source s : Source.values()) {
            p.setProperty("topic." + s.id(), topics.input(s));
        }
        p.setProperty("topic.alerts", topics.alerts());
        p.setProperty("topic.incidents", topics.incidents());
        p.setProperty("topic.dlq", topics.deadLetters());
        return p;
    }

    private static Topics topics(String prefix) {
        Topics t = Topics.defaults().withAlerts(prefix + "-alerts").withIncidents(prefix + "-incidents")
                .withDeadLetters(prefix + "-dlq");
        for (Source s : Source.values()) {
            t = t.withInput(s, prefix + "-" + s.id());
        }
        return t;
    }

    @Test
    void aMissingInputOrIncidentsTopicStopsTheStartWithOneLineNamingThem() {
        Topics topics = topics("missing");
        Properties config = cluster("missing", topics, List.of(topics.input(Source.HAPROXY_STATS), topics.incidents()), Map.of());
        try (StreamApp app = new StreamApp(StreamAppConfig.from(config))) {
            assertThatThrownBy(app::start).isInstanceOf(UsageException.class).hasMessage("topics "
                    + topics.input(Source.HAPROXY_STATS) + ", " + topics.incidents() + " do not exist on Kafka at "
                    + kafka.bootstrapServers() + ": create them (docs/contract.md, Topics) or name existing ones");
        }
    }

    @Test
    void aDeadLetterTopicTooSmallForAnyDeadLetterStopsTheStart() {
        Topics topics = topics("tiny");
        Properties config = cluster("tiny", topics, List.of(), Map.of("max.message.bytes", "16384"));
        try (StreamApp app = new StreamApp(StreamAppConfig.from(config))) {
            assertThatThrownBy(app::start).isInstanceOf(UsageException.class).hasMessage("dead letters need records of up to "
                    + DeadLetterBounds.MIN_RECORD_BYTES + " bytes, but topic tiny-dlq takes 16384 (max.message.bytes): raise it");
        }
    }

    /**
     * A dead-letter topic that takes 64 KiB, and a 300 KB value that does not parse: its dead letter
     * (256 KiB of raw by default) is cut to fit, arrives with its whole size in raw_size, and the
     * stream thread is never replaced.
     */
    @Test
    void aDeadLetterLargerThanTheTopicTakesIsCutToFitAndTheThreadGoesOn() throws Exception {
        Topics topics = topics("small");
        int limit = 64 * 1024;
        Properties config = cluster("small", topics, List.of(), Map.of("max.message.bytes", String.valueOf(limit)));
        // random, so that compression (the limit applies to the compressed batch) does not make it small
        byte[] huge = new byte[300_000];
        new java.util.Random(42).nextBytes(huge);
        byte[] small = "not an haproxy line either".getBytes(StandardCharsets.US_ASCII);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (StreamApp app = new StreamApp(StreamAppConfig.from(config), registry);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> dlq = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                     "group.id", "small-dlq-reader", "auto.offset.reset", "earliest"), new ByteArrayDeserializer(),
                     new ByteArrayDeserializer())) {
            app.start();
            await().atMost(PATIENCE).until(app::isReady);
            producer.send(new ProducerRecord<>(topics.input(Source.HAPROXY), huge)).get();
            producer.send(new ProducerRecord<>(topics.input(Source.HAPROXY), small)).get();

            dlq.subscribe(List.of(topics.deadLetters()));
            List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
            await().atMost(PATIENCE).until(() -> {
                dlq.poll(Duration.ofMillis(200)).forEach(read::add);
                return read.size() >= 2;
            });
            var serde = SpecificAvroSerde.forValues(DeadLetter.class, Map.of("schema.registry.url", "mock://" + SCOPE));
            DeadLetter cut = serde.deserializer().deserialize(topics.deadLetters(), read.get(0).value());
            DeadLetter whole = serde.deserializer().deserialize(topics.deadLetters(), read.get(1).value());

            assertThat(read.get(0).value().length).isLessThanOrEqualTo(limit);
            assertThat(cut.getRawSize()).isEqualTo(huge.length);
            assertThat(cut.getRaw().remaining()).isGreaterThan(limit / 2).isLessThan(limit);
            byte[] kept = new byte[cut.getRaw().remaining()];
            cut.getRaw().get(kept);
            assertThat(kept).isEqualTo(java.util.Arrays.copyOf(huge, kept.length));
            assertThat(whole.getRaw().array()).isEqualTo(small);
            assertThat(registry.find(StreamApp.THREADS_REPLACED).counter().count()).isZero();
        }
    }
}
