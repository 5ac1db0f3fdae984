package io.hcwatch.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.BindException;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.utils.Time;

/**
 * A real single-node Kafka (broker and KRaft controller in one process) in this JVM, on free
 * loopback ports in a temporary directory: what {@code ./hcwatch demo} and {@code bench live} run
 * on, so a newcomer needs nothing but Java, and the cluster of every integration test. Formatted
 * with Kafka's own StorageTool ({@code --standalone}), started as {@link KafkaRaftServer}, deleted
 * on close. Started with {@link SecuredListeners}, it is also a secured cluster (SASL_SSL with SCRAM
 * or PLAIN, mutual TLS) for the tests of hcwatch's secured connections.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** Starts on new ports after one was taken first: each try draws again, so five fail only if ports run out. */
    private static final int START_ATTEMPTS = 5;
    /** The lowest port {@link #freePorts} picks: clear of the well-known and most registered services' ports. */
    private static final int FIXED_PORTS_FROM = 20_000;

    private final Path dir;
    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final String saslSslBootstrapServers;
    private final String mutualTlsBootstrapServers;

    private EmbeddedKafkaBroker(Path dir, KafkaRaftServer server, String bootstrapServers, String saslSslBootstrapServers,
                                String mutualTlsBootstrapServers) {
        this.dir = dir;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.saslSslBootstrapServers = saslSslBootstrapServers;
        this.mutualTlsBootstrapServers = mutualTlsBootstrapServers;
    }

    public static EmbeddedKafkaBroker start() {
        return start(Map.of());
    }

    /** Starts a broker; {@code overrides} are extra broker settings (e.g. log.retention.ms). */
    public static EmbeddedKafkaBroker start(Map<String, String> overrides) {
        return start(overrides, null);
    }

    /** Starts a broker that also has the {@code secured} listeners (SASL_SSL with SCRAM, mutual TLS). */
    public static EmbeddedKafkaBroker start(Map<String, String> overrides, SecuredListeners secured) {
        return start(overrides, secured, EmbeddedKafkaBroker::freePorts);
    }

    /** As {@link #start(Map, SecuredListeners)}, on the ports {@code ports} gives for each try (tests give taken ones). */
    static EmbeddedKafkaBroker start(Map<String, String> overrides, SecuredListeners secured, IntFunction<int[]> ports) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOn(ports.apply(secured == null ? 2 : 4), overrides, secured);
            } catch (RuntimeException e) {
                // a port looked up free can be taken before the broker binds it: by another fork's server,
                // or as the local port of any outgoing connection, which the kernel picks from the same
                // range. KRaft's controller needs its port in the quorum before it starts, so port 0 will
                // not do; new ports will, and nothing was started on the old ones
                if (attempt == START_ATTEMPTS || !portTaken(e)) {
                    throw e;
                }
            }
        }
    }

    private static EmbeddedKafkaBroker startOn(int[] ports, Map<String, String> overrides, SecuredListeners secured) {
        Path dir = null;
        KafkaRaftServer server = null;
        try {
            dir = Files.createTempDirectory("hcwatch-kafka-");
            int brokerPort = ports[0];
            Properties props = brokerProperties(dir, brokerPort, ports[1]);
            String saslSsl = null;
            String mutualTls = null;
            if (secured != null) {
                saslSsl = "127.0.0.1:" + ports[2];
                mutualTls = "127.0.0.1:" + ports[3];
                secure(props, secured, saslSsl, mutualTls);
            }
            overrides.forEach(props::setProperty);
            Path config = dir.resolve("server.properties");
            try (Writer w = Files.newBufferedWriter(config)) {
                props.store(w, "hcwatch embedded broker");
            }
            format(config, secured == null ? Map.of() : secured.users());
            server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
            server.startup();
            String bootstrap = "127.0.0.1:" + brokerPort;
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, server, bootstrap, saslSsl, mutualTls);
            broker.awaitReady(Duration.ofSeconds(60));
            return broker;
        } catch (IOException | RuntimeException e) {
            stopQuietly(server);
            deleteQuietly(dir);
            if (e instanceof IOException io) {
                throw new UncheckedIOException("could not start the embedded Kafka broker", io);
            }
            throw (RuntimeException) e;
        }
    }

    /** Whether starting failed because one of its ports was bound already. */
    private static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    private static void stopQuietly(KafkaRaftServer server) {
        if (server == null) {
            return;
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException ignored) {
            // what failed to start may fail to stop as well; its ports and threads are what matter
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

    private static void secure(Properties p, SecuredListeners secured, String saslSsl, String mutualTls) {
        p.setProperty("listeners", p.getProperty("listeners") + ",SASL_SSL://" + saslSsl + ",SSL://" + mutualTls);
        p.setProperty("advertised.listeners", p.getProperty("advertised.listeners") + ",SASL_SSL://" + saslSsl + ",SSL://" + mutualTls);
        p.setProperty("listener.security.protocol.map", p.getProperty("listener.security.protocol.map") + ",SASL_SSL:SASL_SSL,SSL:SSL");
        p.setProperty("sasl.enabled.mechanisms", SecuredListeners.SCRAM_MECHANISM + "," + SecuredListeners.PLAIN_MECHANISM);
        p.setProperty("listener.name.sasl_ssl." + SecuredListeners.SCRAM_MECHANISM.toLowerCase(java.util.Locale.ROOT)
                + ".sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        StringBuilder plain = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
        secured.users().forEach((user, password) -> plain.append(" user_").append(user).append("=\"").append(password).append('"'));
        p.setProperty("listener.name.sasl_ssl.plain.sasl.jaas.config", plain.append(';').toString());
        p.setProperty("ssl.keystore.type", "PKCS12");
        p.setProperty("ssl.keystore.location", secured.keystore().toString());
        p.setProperty("ssl.keystore.password", secured.storePassword());
        p.setProperty("ssl.truststore.type", "PKCS12");
        p.setProperty("ssl.truststore.location", secured.truststore().toString());
        p.setProperty("ssl.truststore.password", secured.storePassword());
        p.setProperty("listener.name.ssl.ssl.client.auth", "required");
    }

    private static void format(Path config, Map<String, String> scramUsers) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(), "--standalone"));
        scramUsers.forEach((user, password) -> {
            args.add("--add-scram");
            args.add(SecuredListeners.SCRAM_MECHANISM + "=[name=" + user + ",password=" + password + "]");
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            code = StorageTool.execute(args.toArray(String[]::new), print);
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

    /** The SASL_SSL listener (SCRAM-SHA-512 and PLAIN) of a broker started with {@link SecuredListeners}. */
    public String saslSslBootstrapServers() {
        if (saslSslBootstrapServers == null) {
            throw new IllegalStateException("this broker was started without secured listeners");
        }
        return saslSslBootstrapServers;
    }

    /** The SSL listener that requires a client certificate, of a broker started with {@link SecuredListeners}. */
    public String mutualTlsBootstrapServers() {
        if (mutualTlsBootstrapServers == null) {
            throw new IllegalStateException("this broker was started without secured listeners");
        }
        return mutualTlsBootstrapServers;
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
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
            awaitVisible(admin, names);
        } catch (Exception e) {
            throw new IllegalStateException("could not create topics " + names, e);
        }
    }

    /**
     * The controller acknowledges a new topic before the broker's metadata has it: a client that
     * describes it at once (the apps' start-up topic check) can be told it does not exist.
     */
    private static void awaitVisible(Admin admin, Collection<String> names) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(50);
            }
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

    /**
     * {@code count} distinct loopback ports free a moment ago, from below the range the kernel picks
     * outgoing connections' local ports and other servers' "any port" from: nothing but a server told
     * that number can take one before the broker binds it. That matters most for the controller's
     * port, whose bind failing ends the JVM (Kafka's fault handler for a controller that cannot start).
     */
    static int[] freePorts(int count) {
        int[] ports = new int[count];
        ServerSocket[] held = new ServerSocket[count];
        int below = ephemeralPortsFrom();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            for (int i = 0, tries = 0; i < count; tries++) {
                boolean fixed = below - FIXED_PORTS_FROM >= 1_000 && tries < 100;
                try {
                    held[i] = new ServerSocket(fixed ? random.nextInt(FIXED_PORTS_FROM, below) : 0, 1, InetAddress.getLoopbackAddress());
                    ports[i] = held[i].getLocalPort();
                    i++;
                } catch (BindException taken) {
                    if (!fixed) {
                        throw taken;
                    }
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        } finally {
            for (ServerSocket s : held) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing anyway
                    }
                }
            }
        }
    }

    /** The first port of the kernel's ephemeral range (Linux), or 0 where it cannot be read. */
    private static int ephemeralPortsFrom() {
        try {
            // readString would size its read by the file's length, which /proc gives as 0: it read one byte
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
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
