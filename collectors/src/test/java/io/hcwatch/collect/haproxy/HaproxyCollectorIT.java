package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hcwatch.avro.v1.BackendStats;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.ReservedPort;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector against the real HAProxy (Debian package haproxy) on loopback, in master-worker
 * mode, with two small HTTP servers as its backend and the in-process Kafka broker.
 */
class HaproxyCollectorIT {

    private static final AtomicInteger RUN = new AtomicInteger();
    private static ExternalTool haproxyTool;
    private static EmbeddedKafkaBroker kafka;

    @TempDir
    Path dir;
    private final List<HttpServer> backends = new ArrayList<>();
    private final int[] backendPorts = new int[2];
    private Process haproxy;
    private HaproxyCollector collector;
    private KafkaConsumer<String, byte[]> consumer;
    private final List<ConsumerRecord<String, byte[]>> seen = new CopyOnWriteArrayList<>();
    private String suffix;
    private int cliPort;
    private int frontendPort;
    private int statsPagePort;

    @BeforeAll
    static void startKafka() {
        haproxyTool = ExternalTool.haproxy();
        kafka = EmbeddedKafkaBroker.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void startHaproxy() throws Exception {
        suffix = "-" + RUN.incrementAndGet();
        kafka.createTopics(1, "lb-config" + suffix, "health-check-results" + suffix, "haproxy-stats" + suffix);
        for (int i = 0; i < 2; i++) {
            backends.add(backend(0));
            backendPorts[i] = backends.get(i).getAddress().getPort();
        }
        int[] ports = ReservedPort.free(3);
        cliPort = ports[0];
        frontendPort = ports[1];
        statsPagePort = ports[2];
        Files.writeString(dir.resolve("haproxy.cfg"), String.join("\n",
                "global",
                "    stats socket " + dir.resolve("admin.sock") + " level admin",
                "    stats socket ipv4@127.0.0.1:" + cliPort + " level admin",
                "    maxconn 500",
                "defaults",
                "    mode http",
                "    timeout connect 500ms",
                "    timeout client 5s",
                "    timeout server 5s",
                "    timeout check 500ms",
                "frontend fe_web",
                "    bind 127.0.0.1:" + frontendPort,
                "    maxconn 200",
                "    default_backend be_web",
                "frontend stats",
                "    bind 127.0.0.1:" + statsPagePort,
                "    stats enable",
                "    stats uri /stats",
                "backend be_web",
                "    option httpchk GET /health",
                "    default-server check inter 200 fall 2 rise 2",
                "    server s1 127.0.0.1:" + backendPorts[0],
                "    server s2 127.0.0.1:" + backendPorts[1],
                ""));
        haproxy = haproxyTool.start(dir, dir.resolve("haproxy.log"), "-W", "-db", "-f", dir.resolve("haproxy.cfg").toString());
        await("HAProxy's stats socket").atMost(Duration.ofSeconds(20)).until(() -> Files.exists(dir.resolve("admin.sock")));
        consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.id", "it" + suffix,
                "auto.offset.reset", "earliest"), new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of("lb-config" + suffix, "health-check-results" + suffix, "haproxy-stats" + suffix));
    }

    @AfterEach
    void stopAll() throws Exception {
        if (collector != null) {
            collector.close();
        }
        if (consumer != null) {
            consumer.close();
        }
        if (haproxy != null) {
            haproxy.descendants().forEach(ProcessHandle::destroy);
            haproxy.destroy();
            haproxy.waitFor(10, TimeUnit.SECONDS);
        }
        backends.forEach(b -> b.stop(0));
    }

    private HaproxyCollector collector(String hostLines) {
        Properties p = new Properties();
        try {
            p.load(new StringReader("bootstrap.servers=" + kafka.bootstrapServers() + "\n"
                    + "schema.registry.url=mock://haproxy-it\n"
                    + "metrics.port=0\nmetrics.host=127.0.0.1\n"
                    + "topic.config=lb-config" + suffix + "\ntopic.health=health-check-results" + suffix + "\n"
                    + "topic.haproxy-stats=haproxy-stats" + suffix + "\n"
                    + "haproxy.poll.interval.ms=200\nhaproxy.backoff.initial.ms=100\nhaproxy.backoff.max.ms=400\n"
                    + hostLines));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        collector = new HaproxyCollector(HaproxyConfig.read(new ConfigReader(p), System::getenv, () -> "lb-it"));
        collector.start();
        return collector;
    }

    private String unixSocketHost() {
        return "haproxy.hosts=local\nhaproxy.host.local.socket=" + dir.resolve("admin.sock") + "\n";
    }

    // ---- the scenarios --------------------------------------------------------------------------

    @Test
    void limitsArePublishedAtStartAndAMaxconnChangeMadeThroughTheRuntimeApi() throws Exception {
        collector(unixSocketHost());

        await("lb-config at start").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(configs())
                .extracting(LbConfig::getKind, LbConfig::getId, LbConfig::getMaxconn)
                .contains(org.assertj.core.groups.Tuple.tuple(ConfigKind.haproxy_process, "lb-it", 500),
                        org.assertj.core.groups.Tuple.tuple(ConfigKind.haproxy_frontend, "lb-it/fe_web", 200)));
        String answer = new RuntimeApiClient(RuntimeApiAddress.parse("it", "ipv4@127.0.0.1:" + cliPort), Duration.ofSeconds(5))
                .execute("set maxconn frontend fe_web 150");
        assertThat(answer.strip()).isEmpty();

        await("the new limit").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(configs())
                .filteredOn(c -> c.getId().equals("lb-it/fe_web")).extracting(LbConfig::getMaxconn).containsExactly(200, 150));
        assertThat(seen).filteredOn(r -> r.topic().startsWith("lb-config")).extracting(ConsumerRecord::key)
                .contains("lb-it", "lb-it/fe_web");
    }

    @Test
    void aServerGoingDownAndComingBackIsPublishedAsHealthCheckResults() throws Exception {
        collector(unixSocketHost());
        await("both servers up").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(checks())
                .filteredOn(c -> c.getState() == TargetState.healthy).extracting(HealthCheckResult::getTarget).contains("s1", "s2"));

        backends.get(1).stop(0);

        await("s2 down").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(checks())
                .filteredOn(c -> c.getTarget().equals("s2") && c.getState() == TargetState.unhealthy)
                .first().satisfies(c -> {
                    assertThat(c.getOutcome()).isEqualTo(CheckOutcome.connect_error);
                    assertThat(c.getReason()).isEqualTo("Layer4 connection problem");
                    assertThat(c.getTargetGroup()).isEqualTo("be_web");
                    assertThat(c.getLb()).isEqualTo("lb-it");
                    assertThat(c.getSource()).isEqualTo("haproxy");
                    assertThat(c.getPort()).isEqualTo(backendPorts[1]);
                }));
        // a listening port can stay taken for a while after close (connections in TIME_WAIT): retry the bind
        await("s2's port free again").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> restartBackend(1));

        await("s2 up again").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            List<HealthCheckResult> s2 = checks().stream().filter(c -> c.getTarget().equals("s2")).toList();
            assertThat(s2.get(s2.size() - 1)).satisfies(c -> {
                assertThat(c.getState()).isEqualTo(TargetState.healthy);
                assertThat(c.getOutcome()).isEqualTo(CheckOutcome.pass);
                assertThat(c.getReason()).isEqualTo("Layer7 check passed");
                assertThat(c.getStatusCode()).isEqualTo(200);
            });
        });
    }

    @Test
    void statsDeltasAreNeverNegativeAcrossAReload() throws Exception {
        collector(unixSocketHost());
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 20; i++) {
            http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontendPort + "/")).build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        await("the requests counted in a delta").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(stats())
                .flatExtracting(HaproxyStats::getFrontends).filteredOn(f -> f.getName().equals("fe_web"))
                .extracting(FrontendStats::getStotDelta).filteredOn(d -> d != null && d > 0).isNotEmpty());
        List<HaproxyStats> before = stats();
        int pidBefore = before.get(before.size() - 1).getPid();

        Process kill = new ProcessBuilder("kill", "-USR2", Long.toString(haproxy.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();

        await("a poll of the new worker after the reload").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(stats())
                .filteredOn(s -> s.getPid() != pidBefore && s.getIntervalMs() != null).isNotEmpty());
        List<HaproxyStats> all = stats();
        assertThat(all).filteredOn(HaproxyStats::getReloaded).singleElement().satisfies(s -> {
            assertThat(s.getIntervalMs()).isNull();
            assertThat(s.getFrontends()).allSatisfy(f -> assertThat(f.getStotDelta()).isNull());
        });
        assertThat(all).flatExtracting(HaproxyStats::getFrontends).allSatisfy(f -> {
            assertThat(f.getStotDelta()).satisfiesAnyOf(d -> assertThat(d).isNull(), d -> assertThat(d).isNotNegative());
            assertThat(f.getEreqDelta()).satisfiesAnyOf(d -> assertThat(d).isNull(), d -> assertThat(d).isNotNegative());
            assertThat(f.getDreqDelta()).satisfiesAnyOf(d -> assertThat(d).isNull(), d -> assertThat(d).isNotNegative());
        });
        assertThat(all).flatExtracting(HaproxyStats::getBackends).extracting(BackendStats::getStotDelta)
                .allSatisfy(d -> assertThat(d).satisfiesAnyOf(x -> assertThat(x).isNull(), x -> assertThat(x).isNotNegative()));
        assertThat(collector.registry().get("hcwatch.collector.reloads").tag("host", "lb-it").counter().count()).isEqualTo(1.0);
    }

    @Test
    void anUnreachableSocketIsReportedAndRetriedWhileTheOtherHostsKeepPublishing() throws Exception {
        collector("haproxy.hosts=tcp,page,ghost\n"
                + "haproxy.host.tcp.socket=ipv4@127.0.0.1:" + cliPort + "\n"
                + "haproxy.host.page.stats-url=http://127.0.0.1:" + statsPagePort + "/stats;csv\n"
                + "haproxy.host.page.name=lb-page\n"
                + "haproxy.host.ghost.socket=" + dir.resolve("no-such.sock") + "\n"
                + "haproxy.host.ghost.name=lb-ghost\n");

        await("ghost failing repeatedly while tcp and page publish").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(collector.registry().get("hcwatch.collector.poll.errors").tags("host", "lb-ghost", "reason", "unreachable")
                    .counter().count()).isGreaterThanOrEqualTo(3);
            assertThat(stats()).extracting(HaproxyStats::getHost).contains("lb-it", "lb-page");
        });
        assertThat(stats()).extracting(HaproxyStats::getHost).doesNotContain("lb-ghost");
        assertThat(collector.isReady()).isTrue();
        HaproxyStats page = stats().stream().filter(s -> s.getHost().equals("lb-page")).findFirst().orElseThrow();
        HaproxyStats tcp = stats().stream().filter(s -> s.getHost().equals("lb-it")).findFirst().orElseThrow();
        assertThat(page.getPid()).as("the stats page and the runtime API read the same worker").isEqualTo(tcp.getPid());
        assertThat(page.getMaxconn()).isEqualTo(500);
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + collector.metricsPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("hcwatch_collector_poll_errors_total{host=\"lb-ghost\",reason=\"unreachable\"}")
                .contains("hcwatch_collector_up{host=\"lb-ghost\"} 0.0").contains("hcwatch_collector_up{host=\"lb-it\"} 1.0")
                // at 0 before the first failure, so that an alert rule's increase() sees the first one
                .contains("hcwatch_collector_publish_errors_total{reason=\"delivery\",topic=\"haproxy-stats" + suffix + "\"} 0.0");
    }

    // ---- helpers --------------------------------------------------------------------------------

    private List<LbConfig> configs() {
        return decoded("lb-config", LbConfig.class);
    }

    private List<HealthCheckResult> checks() {
        return decoded("health-check-results", HealthCheckResult.class);
    }

    private List<HaproxyStats> stats() {
        return decoded("haproxy-stats", HaproxyStats.class);
    }

    /** Reads what arrived since the last call, then decodes every record of one topic so far. */
    private <T extends SpecificRecord> List<T> decoded(String topic, Class<T> type) {
        consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        SpecificAvroDeserializer<T> deserializer = new SpecificAvroDeserializer<>(type);
        deserializer.configure(Map.of("schema.registry.url", "mock://haproxy-it"), false);
        return seen.stream().filter(r -> r.topic().equals(topic + suffix))
                .map(r -> deserializer.deserialize(r.topic(), r.value())).toList();
    }

    private static HttpServer backend(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", exchange -> {
            byte[] body = "ok\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    private boolean restartBackend(int i) {
        try {
            backends.set(i, backend(backendPorts[i]));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

}
