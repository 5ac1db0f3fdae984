package io.hcwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.collect.haproxy.HaproxyCollector;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.ReservedPort;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code collect haproxy} reads beyond show stat, through the stream app to the alerts, with the
 * real HAProxy 2.6 in master-worker mode on loopback, its haproxy.cfg given to the collector, and
 * no log lines at all (only the collector's records): three servers whose {@code /health} answers
 * as slowly as the test says (two of them start listening after HAProxy), then
 * <ol>
 *   <li>{@code /health} latency creeping toward {@code timeout check 2s}: health_latency_headroom
 *       before any check failed;</li>
 *   <li>a reload that cuts {@code timeout check} to 1s below the latency seen: health_check_config_risk,
 *       critical, dated at the reload, before the first check that fails under the new timeout; then,
 *       every server timing out, correlated_failure with diagnosis timeout_below_latency;</li>
 *   <li>a tarpit flood from 127.0.0.1 filling fe_web (maxconn 100, nothing logged until a tarpit
 *       ends): the first socket_slot_exhaustion page names 127.0.0.1 from {@code show sess}.</li>
 * </ol>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HaproxyChecksAndHoldersIT {

    private static final String REGISTRY = "mock://haproxy-checks-it";

    @TempDir
    Path dir;
    private final Topics topics = Topics.defaults();
    private EmbeddedKafkaBroker kafka;
    private final List<HttpServer> backends = new ArrayList<>();
    private final AtomicInteger healthDelayMs = new AtomicInteger(20);
    private Process haproxy;
    private HaproxyCollector collector;
    private StreamApp app;
    private final List<Alert> alerts = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Set<Socket> tarpitSockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Teardown teardown = new Teardown();
    private int frontendPort;

    @AfterEach
    void stopAll() throws Exception {
        teardown.close();
    }

    @Test
    void checkLatencyAReloadAndATarpitFloodAsTheCollectorSeesThem() throws Exception {
        ExternalTool haproxyTool = ExternalTool.haproxy();
        teardown.onClose(() -> InMemorySchemaRegistry.dropScope(REGISTRY.substring("mock://".length())));
        kafka = teardown.add(EmbeddedKafkaBroker.start());
        E2eStack.createTopics(kafka, topics);
        teardown.onClose(() -> backends.forEach(b -> b.stop(0)));
        // s2 and s3 come up seconds after HAProxy starts checking them: their ports are held till then
        ReservedPort late2 = teardown.add(new ReservedPort());
        ReservedPort late3 = teardown.add(new ReservedPort());
        int[] free = ReservedPort.free(2);
        int[] ports = {free[0], late2.port(), late3.port()};
        frontendPort = free[1];
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, haproxyCfg(ports, "2s"));
        backends.add(E2eStack.backend(ports[0], healthDelayMs::get));
        haproxy = haproxyTool.start(dir, dir.resolve("haproxy.log"), "-W", "-db", "-f", cfg.toString());
        teardown.onClose(() -> E2eStack.stop(haproxy));
        await("HAProxy's stats socket").atMost(Duration.ofSeconds(20)).until(() -> Files.exists(dir.resolve("admin.sock")));
        Path collectorConfig = dir.resolve("collector.properties");
        Files.writeString(collectorConfig, String.join("\n",
                "bootstrap.servers=" + kafka.bootstrapServers(),
                "schema.registry.url=" + REGISTRY,
                "metrics.host=127.0.0.1",
                "metrics.port=0",
                "haproxy.hosts=local",
                "haproxy.host.local.socket=" + dir.resolve("admin.sock"),
                "haproxy.host.local.config-file=" + cfg,
                ""));
        collector = teardown.add(HaproxyCollector.fromFile(collectorConfig));
        collector.start();
        app = teardown.add(new StreamApp(StreamAppConfig.from(E2eStack.appProperties(kafka, REGISTRY, "hcwatch-haproxy-checks-it",
                dir.resolve("state")))));
        teardown.onClose(() -> {
            // the tarpitted requests block in read(), which no interrupt ends, until HAProxy's 60 s tarpit
            // does: without closing their sockets first, the wait for the test's threads ran out its whole 20 s
            running.set(false);
            tarpitSockets.forEach(HaproxyChecksAndHoldersIT::closeQuietly);
            E2eStack.stop(threads, running);
        });
        app.start();
        threads.submit(() -> E2eStack.readAlerts(kafka, REGISTRY, topics, "checks-it-alerts", running::get, alerts::add));
        // two servers come up late: they are starting, not failing
        Thread.sleep(3_000);
        backends.add(E2eStack.backend(late2.release(), healthDelayMs::get));
        backends.add(E2eStack.backend(late3.release(), healthDelayMs::get));
        await("the stream app").atMost(Duration.ofSeconds(60)).until(app::isReady);
        await("every server passing").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(checks())
                .filteredOn(c -> c.getOutcome() == CheckOutcome.pass).extracting(HealthCheckResult::getTarget)
                .contains("s1", "s2", "s3"));
        Thread.sleep(12_000);
        assertThat(alerts).as("alerts at start-up, with two servers late").isEmpty();

        // 1. /health latency creeps from 20 ms to 1.3 s over 30 s, under timeout check 2s
        Instant creepFrom = Instant.now();
        for (int step = 1; step <= 30; step++) {
            healthDelayMs.set(20 + step * 1280 / 30);
            Thread.sleep(1_000);
        }
        Alert headroom = await("health_latency_headroom").atMost(Duration.ofSeconds(40)).until(
                () -> firing("health_latency_headroom"), a -> a != null);
        List<HealthCheckResult> beforeHeadroom = checks().stream()
                .filter(c -> c.getTs().isAfter(creepFrom) && !c.getTs().isAfter(headroom.getEventTime())).toList();
        assertThat(beforeHeadroom).as("checks from the creep's start to the headroom alert").hasSizeGreaterThan(30)
                .allSatisfy(c -> assertThat(c.getOutcome()).isEqualTo(CheckOutcome.pass));
        assertThat(headroom.getDetails()).containsEntry("timeout_ms", "2000");
        assertThat(Integer.parseInt(headroom.getDetails().get("p99_ms"))).isBetween(1_000, 2_000);

        // 2. a reload cuts timeout check to 1s while the checks take 1.3 s
        Files.writeString(cfg, haproxyCfg(ports, "1s"));
        Instant reload = Instant.now();
        assertThat(new ProcessBuilder("kill", "-USR2", Long.toString(haproxy.pid())).start().waitFor(10, TimeUnit.SECONDS)).isTrue();
        Alert risk = await("health_check_config_risk").atMost(Duration.ofSeconds(40)).until(
                () -> firing("health_check_config_risk"), a -> a != null);
        assertThat(risk.getSeverity().name()).isEqualTo("critical");
        assertThat(risk.getDetails()).containsEntry("old_timeout_ms", "2000").containsEntry("new_timeout_ms", "1000");
        Instant changedAt = Instant.parse(risk.getDetails().get("changed_at"));
        assertThat(changedAt).isBetween(reload.minusSeconds(1), reload.plusSeconds(10));
        Instant firstTimeout = await("a check timed out under the new timeout").atMost(Duration.ofSeconds(30)).until(
                () -> checks().stream().filter(c -> c.getOutcome() == CheckOutcome.timeout).map(HealthCheckResult::getTs)
                        .findFirst().orElse(null), t -> t != null);
        // the first poll of the new worker may also be the one that sees its first check time out: then they are one instant
        assertThat(changedAt).as("the config risk is dated at the reload, no later than the first failed check")
                .isBeforeOrEqualTo(firstTimeout);
        // the checks stay at 1.3 s until every server has failed, so that all three are failing at one evaluation step
        Alert correlated = await("correlated_failure").atMost(Duration.ofSeconds(40)).until(
                () -> firing("correlated_failure"), a -> a != null);
        System.out.printf("correlated_failure after the cut: %s | %s%n", correlated.getSummary(), correlated.getDetails());
        assertThat(correlated.getDetails()).containsEntry("failing", "3").containsEntry("timeout_ms", "1000")
                .containsEntry("diagnosis", "timeout_below_latency");
        healthDelayMs.set(20);

        // 3. 127.0.0.1 fills fe_web with tarpitted requests
        for (int i = 0; i < 120; i++) {
            threads.submit(this::tarpitted);
        }
        Alert slots = await("socket_slot_exhaustion").atMost(Duration.ofSeconds(40)).until(
                () -> firing("socket_slot_exhaustion"), a -> a != null);
        System.out.printf("first socket_slot_exhaustion page: %s | %s%n", slots.getSummary(), slots.getDetails());
        assertThat(slots.getDetails().get("slot_holders")).startsWith("127.0.0.1=");
        assertThat(slots.getDetails().get("slot_holders_from")).startsWith("show sess at ");
        assertThat(slots.getSummary()).contains("slots held by 127.0.0.1=");
    }

    private String haproxyCfg(int[] ports, String checkTimeout) {
        return String.join("\n",
                "global",
                "    stats socket " + dir.resolve("admin.sock") + " level admin",
                "    maxconn 1000",
                "defaults",
                "    mode http",
                "    timeout connect 1s",
                "    timeout client 60s",
                "    timeout server 5s",
                "    timeout tarpit 60s",
                "    timeout check " + checkTimeout,
                "frontend fe_web",
                "    bind 127.0.0.1:" + frontendPort,
                "    maxconn 100",
                "    http-request tarpit if { path_beg /tarpitted }",
                "    default_backend be_app",
                "backend be_app",
                "    option httpchk GET /health",
                "    default-server check inter 500 fall 3 rise 2",
                "    server s1 127.0.0.1:" + ports[0],
                "    server s2 127.0.0.1:" + ports[1],
                "    server s3 127.0.0.1:" + ports[2],
                "");
    }

    /** /health answers after the test's delay; anything else at once. */

    /** One tarpitted request from 127.0.0.1, held until HAProxy ends it or the test does. */
    private void tarpitted() {
        try (Socket s = new Socket()) {
            // registered before running is read below: the teardown clears running, then closes what is registered
            tarpitSockets.add(s);
            s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            s.setSoTimeout(90_000);
            s.connect(new InetSocketAddress("127.0.0.1", frontendPort), 5_000);
            s.getOutputStream().write("GET /tarpitted HTTP/1.1\r\nHost: it\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            while (running.get() && in.read(buf) >= 0) {
                // held by the tarpit
            }
        } catch (IOException e) {
            // refused or reset once fe_web is full, or closed at the end of the test
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private List<HealthCheckResult> checks() {
        SpecificAvroDeserializer<HealthCheckResult> values = new SpecificAvroDeserializer<>(HealthCheckResult.class);
        values.configure(Map.of("schema.registry.url", REGISTRY), false);
        List<HealthCheckResult> out = new ArrayList<>();
        try (KafkaConsumer<String, HealthCheckResult> c = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "checks-" + System.nanoTime(), "auto.offset.reset", "earliest"), new StringDeserializer(), values)) {
            c.subscribe(List.of(topics.input(Source.HEALTH)));
            long deadline = System.currentTimeMillis() + 5_000;
            int empty = 0;
            while (System.currentTimeMillis() < deadline && empty < 3) {
                var batch = c.poll(Duration.ofMillis(200));
                empty = batch.isEmpty() && !c.assignment().isEmpty() ? empty + 1 : 0;
                for (ConsumerRecord<String, HealthCheckResult> r : batch) {
                    out.add(r.value());
                }
            }
        }
        return out;
    }

    private Alert firing(String type) {
        return alerts.stream().filter(a -> a.getType().equals(type) && a.getStatus() == AlertStatus.firing).findFirst().orElse(null);
    }
}
