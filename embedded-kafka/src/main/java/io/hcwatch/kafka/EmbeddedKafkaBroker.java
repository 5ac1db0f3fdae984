package io.hcwatch.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka (broker and KRaft controller in one process) in this JVM, on free
 * loopback ports in a temporary directory: what {@code ./hcwatch demo} and {@code bench live} run
 * on, so a newcomer needs nothing but Java, and the cluster of every integration test. Formatted
 * with Kafka's own StorageTool ({@code --standalone}), started as {@link KafkaRaftServer}, deleted
 * on close.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private final Path dir;
    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(Path dir, KafkaRaftServer server, String bootstrapServers) {
        this.dir = dir;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    public static EmbeddedKafkaBroker start() {
        return start(Map.of());
    }

    /** Starts a broker; {@code overrides} are extra broker settings (e.g. log.retention.ms). */
    public static EmbeddedKafkaBroker start(Map<String, String> overrides) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("hcwatch-kafka-");
            int brokerPort = freePort();
            int controllerPort = freePort();
            Properties props = brokerProperties(dir, brokerPort, controllerPort);
            overrides.forEach(props::setProperty);
            Path config = dir.resolve("server.properties");
            try (Writer w = Files.newBufferedWriter(config)) {
                props.store(w, "hcwatch embedded broker");
            }
            format(config);
            KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
            server.startup();
            String bootstrap = "127.0.0.1:" + brokerPort;
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, server, bootstrap);
            broker.awaitReady(Duration.ofSeconds(60));
            return broker;
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("could not start the embedded Kafka broker", e);
        }
    }

    static Properties brokerProperties(Path dir, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dir.resolve("data").toString());
        // one node: every internal topic must fit on it, or consumers and Streams wait forever
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("num.partitions", "1");
        p.setProperty("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        // the broker lives as long as its temp dir; telemetry stamped in the past (scenarios, benchmarks)
        // would otherwise be deleted by time retention as soon as its segment rolls, under a reading consumer
        p.setProperty("log.retention.ms", "-1");
        return p;
    }

    private static void format(Path config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            code = StorageTool.execute(new String[] {
                    "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(), "--standalone"}, print);
        }
        if (code != 0) {
            throw new IllegalStateException("kafka storage format failed: " + out.toString(StandardCharsets.UTF_8).trim());
        }
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    return;
                } catch (Exception e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the embedded Kafka broker did not become ready in " + timeout, e);
                    }
                }
            }
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** Creates topics that do not exist yet (replication factor 1). */
    public void createTopics(int partitions, String... names) {
        createTopics(partitions, List.of(names));
    }

    /** Creates topics that do not exist yet (replication factor 1). */
    public void createTopics(int partitions, Collection<String> names) {
        createTopics(partitions, names, Map.of());
    }

    public void createTopics(int partitions, Collection<String> names, Map<String, String> topicConfig) {
        try (Admin admin = admin()) {
            List<NewTopic> topics = names.stream()
                    .map(n -> new NewTopic(n, partitions, (short) 1).configs(topicConfig))
                    .toList();
            for (var f : admin.createTopics(topics).values().values()) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not create topics " + names, e);
        }
    }

    @Override
    public void close() {
        try {
            server.shutdown();
            server.awaitShutdown();
        } finally {
            deleteQuietly(dir);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
