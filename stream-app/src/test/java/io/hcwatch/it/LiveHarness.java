package io.hcwatch.it;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A real broker and an HTTP schema registry for end-to-end tests, with the topics hcwatch
 * reads and writes, a producer for telemetry and readers for alerts and dead letters.
 */
final class LiveHarness implements AutoCloseable {

    final EmbeddedKafkaBroker kafka;
    final SchemaRegistryServer registry;
    final Topics topics;
    /** Prefixes this harness's topic names and the application.id of its runs ("" on a broker of its own). */
    final String namespace;
    /** Partitions of each input topic. */
    final int inputPartitions;
    private final BrokerAndRegistry owned;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Path workDir;

    /** On a broker and registry of its own, with the default topic names; closing stops them. */
    LiveHarness(int inputPartitions) {
        this(new BrokerAndRegistry(), true, "", inputPartitions);
    }

    /** On {@code shared}, with topics no other harness on it uses; closing leaves the broker running. */
    static LiveHarness on(BrokerAndRegistry shared, int inputPartitions) {
        return new LiveHarness(shared, false, shared.nextNamespace(), inputPartitions);
    }

    private LiveHarness(BrokerAndRegistry cluster, boolean owns, String namespace, int inputPartitions) {
        kafka = cluster.kafka;
        registry = cluster.registry;
        owned = owns ? cluster : null;
        this.namespace = namespace;
        this.inputPartitions = inputPartitions;
        topics = prefixed(Topics.defaults(), namespace);
        List<String> inputs = new ArrayList<>(topics.inputs().values());
        kafka.createTopics(inputPartitions, inputs);
        kafka.createTopics(3, topics.alerts(), topics.incidents(), topics.deadLetters());
        producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "linger.ms", 5,
                "batch.size", 262144, "compression.type", "lz4"), new ByteArraySerializer(), new ByteArraySerializer());
        try {
            workDir = Files.createTempDirectory("hcwatch-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Topics prefixed(Topics topics, String prefix) {
        Topics out = topics.withAlerts(prefix + topics.alerts()).withIncidents(prefix + topics.incidents())
                .withDeadLetters(prefix + topics.deadLetters());
        for (Source s : Source.values()) {
            out = out.withInput(s, prefix + topics.input(s));
        }
        return out;
    }

    /** A stream-app config file for this cluster; {@code extra} may add streams.* or detect.* keys. */
    Path appConfig(String name, Map<String, String> extra) {
        Properties p = new Properties();
        // this harness's topics, renamed as docs/contract.md allows, when it shares its broker
        topics.inputs().forEach((source, topic) -> p.setProperty("topic." + source.id(), topic));
        p.setProperty("topic.alerts", topics.alerts());
        p.setProperty("topic.incidents", topics.incidents());
        p.setProperty("topic.dlq", topics.deadLetters());
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", registry.url());
        p.setProperty("application.id", "hcwatch-it");
        p.setProperty("metrics.host", "127.0.0.1");
        p.setProperty("metrics.port", "0");
        p.setProperty("state.dir", workDir.resolve("state-" + name + "-" + UUID.randomUUID()).toString());
        extra.forEach(p::setProperty);
        Path file = workDir.resolve(name + ".properties");
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "hcwatch integration test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * Produces in the given order, paced at about 20 seconds of event time per wall second, as
     * telemetry arrives live: every partition then moves through event time together, and the
     * test sees the pipeline's behaviour rather than an artificial backlog race between partitions.
     */
    void produce(List<Telemetry> telemetry) {
        long lastPause = Long.MIN_VALUE;
        for (Telemetry t : telemetry) {
            if (lastPause == Long.MIN_VALUE) {
                lastPause = t.eventTime();
            } else if (t.eventTime() - lastPause >= 1_000) {
                producer.flush();
                java.util.concurrent.locks.LockSupport.parkNanos(50_000_000);
                lastPause = t.eventTime();
            }
            byte[] key = t.key() == null ? null : t.key().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(topics.input(t.source()), null, t.eventTime(), key, t.value()));
        }
        producer.flush();
    }

    void produceRaw(Source source, byte[] value, long timestamp) {
        producer.send(new ProducerRecord<>(topics.input(source), null, timestamp, null, value));
    }

    void flush() {
        producer.flush();
    }

    /** Reads a whole topic from the start into memory as it grows. */
    <V> TopicReader<V> reader(String topic, org.apache.kafka.common.serialization.Deserializer<V> values) {
        return new TopicReader<>(kafka.bootstrapServers(), topic, values);
    }

    TopicReader<Alert> alerts() {
        return reader(topics.alerts(), SpecificAvroSerde.forValues(Alert.class, Map.of("schema.registry.url", registry.url()))
                .deserializer());
    }

    TopicReader<Incident> incidents() {
        return reader(topics.incidents(), SpecificAvroSerde.forValues(Incident.class, Map.of("schema.registry.url", registry.url()))
                .deserializer());
    }

    TopicReader<DeadLetter> deadLetters() {
        return reader(topics.deadLetters(), SpecificAvroSerde.forValues(DeadLetter.class,
                Map.of("schema.registry.url", registry.url())).deserializer());
    }

    /** Committed offset / end offset of every partition {@code group} has committed: for failure messages. */
    String progress(String group) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get();
            Map<String, String> out = new TreeMap<>();
            committed.forEach((tp, o) -> out.put(tp.toString(), o.offset() + "/" + ends.get(tp).offset()));
            return out.toString();
        } catch (Exception e) {
            return "(no progress: " + e + ")";
        }
    }

    /**
     * Whether {@code group} has committed the end offset of every partition of {@code topic}: it has
     * read, processed and committed everything produced there so far.
     */
    boolean consumedAll(String group, String topic) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (var partition : admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()) {
                latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
            }
            var ends = admin.listOffsets(latest).all().get();
            return latest.keySet().stream().allMatch(tp -> committed.get(tp) != null
                    && committed.get(tp).offset() >= ends.get(tp).offset());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return false;
        }
    }

    /**
     * What a store's changelog holds, for failure messages: per record its partition, offset and key,
     * and for monitor state (JSON) the key's clock and the alerts it has open. Tells a restart that
     * restored state from one that started afresh.
     */
    String changelogDigest(String store) {
        String topic = "hcwatch-it-" + store + "-changelog";
        StringBuilder out = new StringBuilder(topic).append(':');
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "digest-" + UUID.randomUUID(), "auto.offset.reset", "earliest"),
                Serdes.String().deserializer(), Serdes.ByteArray().deserializer())) {
            c.subscribe(List.of(topic));
            int records = 0;
            for (int empty = 0, polls = 0; empty < 5 && polls < 50; polls++) {
                var batch = c.poll(Duration.ofMillis(300));
                empty = batch.isEmpty() ? empty + 1 : 0;
                for (ConsumerRecord<String, byte[]> r : batch) {
                    records++;
                    if (records > 200) {
                        continue;
                    }
                    out.append("\n  ").append(r.partition()).append('@').append(r.offset()).append(' ').append(r.key());
                    if (r.value() == null) {
                        out.append(" tombstone");
                    } else if (r.value().length > 0 && r.value()[0] == '{') {
                        try {
                            var tree = json.readTree(r.value());
                            out.append(" time=").append(tree.path("time")).append(" open=")
                                    .append(tree.path("alerts").path("episodes").properties().stream().map(Map.Entry::getKey).toList());
                        } catch (IOException e) {
                            out.append(" (unreadable: ").append(e.getMessage()).append(')');
                        }
                    } else {
                        out.append(" ").append(r.value().length).append(" bytes");
                    }
                }
            }
            out.append("\n  (").append(records).append(" records)");
        }
        return out.toString();
    }

    /**
     * A monitor clock's changelog decoded: each header (watermark, last step and every upstream's
     * report, relative to {@code t0}) with the held records put and deleted since the one before.
     */
    String clockDigest(String store, long t0) {
        String topic = "hcwatch-it-" + store + "-changelog";
        StringBuilder out = new StringBuilder(topic).append(':');
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "digest-" + UUID.randomUUID(), "auto.offset.reset", "earliest"),
                Serdes.String().deserializer(), Serdes.ByteArray().deserializer())) {
            c.subscribe(List.of(topic));
            int puts = 0;
            int deletes = 0;
            long minHeld = Long.MAX_VALUE;
            long maxHeld = Long.MIN_VALUE;
            for (int empty = 0, polls = 0; empty < 5 && polls < 50; polls++) {
                var batch = c.poll(Duration.ofMillis(300));
                empty = batch.isEmpty() ? empty + 1 : 0;
                for (ConsumerRecord<String, byte[]> r : batch) {
                    if (r.value() == null) {
                        deletes++;
                        continue;
                    }
                    try (var in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(r.value()))) {
                        if (in.readByte() == 2) {
                            in.readUTF();
                            long time = in.readLong();
                            puts++;
                            minHeld = Math.min(minHeld, time);
                            maxHeld = Math.max(maxHeld, time);
                            continue;
                        }
                        out.append("\n  ").append(r.partition()).append('@').append(r.offset()).append(" written ")
                                .append(java.time.Instant.ofEpochMilli(r.timestamp())).append(" after ").append(puts)
                                .append(" held put (").append(rel(minHeld, t0)).append("..").append(rel(maxHeld, t0))
                                .append("), ").append(deletes).append(" deleted; wm=").append(rel(in.readLong(), t0))
                                .append(" step=").append(rel(in.readLong(), t0)).append(" upstreams={");
                        int n = in.readInt();
                        for (int i = 0; i < n; i++) {
                            out.append(in.readUTF()).append(':').append(rel(in.readLong(), t0)).append(in.readBoolean() ? "(idle)" : "")
                                    .append(i + 1 < n ? " " : "");
                        }
                        out.append('}');
                        puts = 0;
                        deletes = 0;
                        minHeld = Long.MAX_VALUE;
                        maxHeld = Long.MIN_VALUE;
                    } catch (IOException e) {
                        out.append(" (unreadable: ").append(e.getMessage()).append(')');
                    }
                }
            }
            out.append("\n  then ").append(puts).append(" held put, ").append(deletes).append(" deleted");
        }
        return out.toString();
    }

    private static String rel(long time, long t0) {
        return time == Long.MIN_VALUE || time == Long.MAX_VALUE ? "-" : "T0+" + (time - t0) / 1000.0;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        if (owned != null) {
            owned.close();
        }
    }

    /** A consumer that accumulates everything a topic holds, read_committed so aborted transactions never show. */
    static final class TopicReader<V> implements AutoCloseable {
        private final KafkaConsumer<String, V> consumer;
        private final List<V> seen = Collections.synchronizedList(new ArrayList<>());

        TopicReader(String bootstrap, String topic, org.apache.kafka.common.serialization.Deserializer<V> values) {
            consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap, "group.id", "reader-" + UUID.randomUUID(),
                    "auto.offset.reset", "earliest", "isolation.level", "read_committed", "max.poll.records", 5000),
                    Serdes.String().deserializer(), values);
            consumer.subscribe(List.of(topic));
        }

        /** Polls once and returns everything seen so far. */
        List<V> poll() {
            for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(200))) {
                seen.add(r.value());
            }
            return new ArrayList<>(seen);
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
