package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.config.Settings;
import io.hcwatch.haproxy.BuiltinLogFormats;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.PublishedLogFormats;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.ReservedPort;
import io.hcwatch.topology.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HAProxy 2.6 serves the same traffic through three frontends that log it with
 * {@code option httplog}, a custom text log-format and a hand-written JSON log-format, while
 * {@code collect haproxy} polls its stats socket and reads its haproxy.cfg. With no format declared
 * anywhere, the formats the collector publishes in lb-config read every line; read with the formats
 * declared as haproxy.cfg has them instead, the lines give the same requests; the three frontends
 * give the same requests, and replayed with the collector's lb-config records they raise the same
 * alerts (a client flooding each frontend) and dead-letter nothing.
 */
class HaproxyLogFormatsIT {

    private static final String CUSTOM = "\"%{+Q}ft %b/%s %{+X}Ts.%ms %ci:%cp %ST %B %TR/%Tw/%Tc/%Tr/%Ta %tsc "
            + "%ac/%fc/%bc/%sc/%rc %sq/%bq %{+Q}r\"";
    private static final String JSON = "'{\"date\":\"%t\",\"client\":\"%ci\",\"port\":%cp,\"fe\":\"%ft\",\"be\":\"%b\","
            + "\"srv\":\"%s\",\"timers\":\"%TR/%Tw/%Tc/%Tr/%Ta\",\"status\":%ST,\"bytes\":%B,\"tsc\":\"%tsc\","
            + "\"conn\":\"%ac/%fc/%bc/%sc/%rc\",\"queue\":\"%sq/%bq\",\"req\":\"%{+E}r\"}'";
    private static final List<String> FRONTENDS = List.of("fe_httplog", "fe_custom", "fe_json");
    private static final int FLOOD = 300;
    private static final int TRICKLE = 12;

    private static EmbeddedKafkaBroker kafka;

    @TempDir
    Path dir;

    private Process haproxy;
    private HttpServer backend;
    private DatagramSocket syslog;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private HaproxyCollector collector;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafkaBroker.start();
        kafka.createTopics(1, "lb-config", "health-check-results", "haproxy-stats");
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
        if (collector != null) {
            collector.close();
        }
        if (haproxy != null) {
            haproxy.destroy();
            haproxy.waitFor(5, TimeUnit.SECONDS);
        }
        if (backend != null) {
            backend.stop(0);
        }
        if (syslog != null) {
            syslog.close();
        }
    }

    @Test
    void theSameTrafficUnderThreeFormatsGivesTheSameRequestsAndAlerts() throws Exception {
        ExternalTool tool = ExternalTool.haproxy();
        backend = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        backend.createContext("/", exchange -> {
            int status = exchange.getRequestURI().getPath().startsWith("/fail") ? 503 : 200;
            byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        backend.start();
        syslog = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        syslog.setSoTimeout(200);
        Queue<String> received = new ConcurrentLinkedQueue<>();
        Future<?> receiver = pool.submit(() -> receive(received));
        int[] ports = ReservedPort.free(3);
        Files.writeString(dir.resolve("haproxy.cfg"), String.join("\n",
                "global", "    log 127.0.0.1:" + syslog.getLocalPort() + " local0", "    maxconn 2000",
                "    stats socket " + dir.resolve("admin.sock") + " level admin",
                "defaults", "    mode http", "    log global", "    option httplog", "    timeout connect 2s",
                "    timeout client 5s", "    timeout server 5s",
                "frontend fe_httplog", "    bind 127.0.0.1:" + ports[0], "    default_backend app",
                "frontend fe_custom", "    bind 127.0.0.1:" + ports[1], "    log-format " + CUSTOM, "    default_backend app",
                "frontend fe_json", "    bind 127.0.0.1:" + ports[2], "    log-format " + JSON, "    default_backend app",
                "backend app", "    server web1 127.0.0.1:" + backend.getAddress().getPort(), ""));
        haproxy = tool.start(dir, dir.resolve("haproxy.out"), "-db", "-f", dir.resolve("haproxy.cfg").toString());
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> answers(ports[0]) && answers(ports[1]) && answers(ports[2]));
        collector = collector(dir.resolve("haproxy.cfg"));
        List<String> published = new ArrayList<>();
        try (KafkaConsumer<String, String> configs = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "group.id", "formats-it", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
            configs.subscribe(List.of("lb-config"));
            await("the collector's lb-config for the three frontends").atMost(Duration.ofSeconds(30)).until(() -> {
                configs.poll(Duration.ofMillis(100)).forEach(r -> published.add(r.value()));
                return published.stream().filter(c -> FRONTENDS.stream().anyMatch(f -> c.contains("\"frontend\":\"" + f + "\"")))
                        .count() == FRONTENDS.size();
            });
        }
        Map<String, String> formatOf = new TreeMap<>();
        for (String json : published) {
            LbConfig c = ((ParseResult.Ok<LbConfig>) new LbConfigJson().parse(json)).value();
            if (c.getFrontend() != null) {
                formatOf.put(c.getFrontend(), c.getLogFormat());
            }
        }
        // the formats as HAProxy holds them once it has read haproxy.cfg: its quotes gone, httplog's own string
        assertThat(formatOf).containsEntry("fe_httplog", BuiltinLogFormats.HTTPLOG)
                .containsEntry("fe_custom", CUSTOM.substring(1, CUSTOM.length() - 1))
                .containsEntry("fe_json", JSON.substring(1, JSON.length() - 1));
        Path configFile = Files.write(dir.resolve("lb-config.jsonl"), published, StandardCharsets.UTF_8);

        // one client floods each frontend while another sends a request every half second
        List<Future<?>> traffic = new ArrayList<>();
        for (int port : ports) {
            traffic.add(pool.submit(() -> {
                for (int i = 0; i < FLOOD; i++) {
                    request("127.0.0.1", port, i % 30 == 0 ? "/fail/" + i : "/api/items/" + i + "?q=%22x%22");
                }
                return null;
            }));
        }
        for (int k = 0; k < TRICKLE; k++) {
            for (int port : ports) {
                request("127.0.0.2", port, "/home");
            }
            Thread.sleep(500);
        }
        for (Future<?> f : traffic) {
            f.get(30, TimeUnit.SECONDS);
        }
        int expected = 3 * (FLOOD + TRICKLE);
        await().atMost(Duration.ofSeconds(10)).until(() -> traffic(received).size() >= expected);
        receiver.cancel(true);

        Map<String, List<String>> byFrontend = new TreeMap<>();
        for (String line : traffic(received)) {
            String frontend = FRONTENDS.stream().filter(line::contains).findFirst().orElse("?");
            byFrontend.computeIfAbsent(frontend, k -> new ArrayList<>()).add(line);
        }
        assertThat(byFrontend).containsOnlyKeys(FRONTENDS);
        PublishedLogFormats fromCollector = new PublishedLogFormats(HaproxyLogFormats.none());
        published.forEach(json -> fromCollector.publish(((ParseResult.Ok<LbConfig>) new LbConfigJson().parse(json)).value()));
        HaproxyLogParser parser = new HaproxyLogParser(LogDates.live(Clock.systemUTC()), fromCollector);
        HaproxyLogParser declared = new HaproxyLogParser(LogDates.live(Clock.systemUTC()),
                DeclaredLogFormats.of(Map.of("fe_custom", CUSTOM, "fe_json", JSON)));
        Map<String, List<String>> requests = new TreeMap<>();
        Map<String, List<String>> alerts = new TreeMap<>();
        for (String frontend : FRONTENDS) {
            List<String> lines = byFrontend.get(frontend);
            assertThat(lines).as(frontend).hasSize(FLOOD + TRICKLE);
            List<String> seen = requests(parser, frontend, lines);
            assertThat(requests(declared, frontend, lines)).as(frontend + " read with the formats declared in settings")
                    .isEqualTo(seen);
            requests.put(frontend, seen.stream().sorted().toList());
            alerts.put(frontend, replay(frontend, lines, configFile));
        }
        assertThat(requests.get("fe_custom")).isEqualTo(requests.get("fe_httplog"));
        assertThat(requests.get("fe_json")).isEqualTo(requests.get("fe_httplog"));
        assertThat(requests.get("fe_httplog")).anyMatch(r -> r.startsWith("127.0.0.1 200 app web1 GET /api/items/1?q=%22x%22 HTTP/1.1 ---- "))
                .anyMatch(r -> r.startsWith("127.0.0.1 503 app web1 GET /fail/0 HTTP/1.1 ---- "));
        assertThat(alerts.get("fe_httplog")).contains("client_flood firing 127.0.0.1");
        assertThat(alerts.get("fe_custom")).isEqualTo(alerts.get("fe_httplog"));
        assertThat(alerts.get("fe_json")).isEqualTo(alerts.get("fe_httplog"));
    }

    /** Each line's request as the parser reads it, in the lines' order. */
    private static List<String> requests(HaproxyLogParser parser, String frontend, List<String> lines) {
        List<String> seen = new ArrayList<>();
        for (String line : lines) {
            ParseResult<Decoded> r = parser.parse(line);
            assertThat(r).as(line).isInstanceOf(ParseResult.Ok.class);
            HaproxyRequest q = ((HaproxyLine) ((ParseResult.Ok<Decoded>) r).value()).request();
            assertThat(q.getFrontend()).isEqualTo(frontend);
            seen.add(String.join(" ", q.getClientIp(), String.valueOf(q.getStatusCode()), q.getBackend(), q.getServer(),
                    q.getHttpMethod(), q.getHttpUri(), q.getHttpVersion(), q.getTerminationState(),
                    String.valueOf(q.getBytesRead()), String.valueOf(q.getTa() != null)));
        }
        return seen;
    }

    /** The collector: HAProxy's stats socket and haproxy.cfg, JSON records to the broker. */
    private static HaproxyCollector collector(Path cfg) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader("bootstrap.servers=" + kafka.bootstrapServers() + "\nformat=json\n"
                + "metrics.port=0\nmetrics.host=127.0.0.1\nhaproxy.poll.interval.ms=200\n"
                + "haproxy.hosts=local\nhaproxy.host.local.socket=" + cfg.resolveSibling("admin.sock") + "\n"
                + "haproxy.host.local.config-file=" + cfg + "\n"));
        HaproxyCollector c = new HaproxyCollector(HaproxyConfig.read(new ConfigReader(p), System::getenv, () -> "lb-formats"));
        c.start();
        return c;
    }

    /** The frontend's lines through replay with the collector's lb-config, nothing declared: the alerts raised, as type, status and client. */
    private List<String> replay(String frontend, List<String> lines, Path configs) throws IOException {
        Path file = Files.write(dir.resolve(frontend + ".log"), lines, StandardCharsets.UTF_8);
        List<DeadLetter> dead = new ArrayList<>();
        List<Alert> alerts = new ReplayRun(new ReplayInputs().add(Source.HAPROXY, file).add(Source.CONFIG, configs),
                Settings.defaults().with(Map.of("flood.min-rate", "10", "flood.window", "10s")),
                LogDates.live(Clock.systemUTC()), HaproxyLogFormats.none()).run(dead::add, new ReplaySummary());
        assertThat(dead).as(frontend + " dead letters").isEmpty();
        return alerts.stream().map(a -> a.getType() + " " + a.getStatus() + " " + a.getScope().getClient())
                .distinct().sorted().collect(Collectors.toList());
    }

    /** What HAProxy logged of the test's traffic, without the requests that waited for it to start. */
    private static List<String> traffic(Queue<String> received) {
        return received.stream().filter(l -> !l.contains("/ready")).toList();
    }

    private void receive(Queue<String> into) {
        byte[] buffer = new byte[65_535];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline && !syslog.isClosed()) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                syslog.receive(packet);
                into.add(new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8).strip());
            } catch (SocketTimeoutException e) {
                // look at the interrupt flag and the deadline again
            } catch (IOException e) {
                return;
            }
        }
    }

    private static boolean answers(int port) {
        try {
            request("127.0.0.1", port, "/ready");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** One request on its own connection from {@code source}, read to its end. */
    private static void request(String source, int port, String path) throws IOException {
        try (Socket s = new Socket()) {
            s.setSoTimeout(5000);
            s.bind(new InetSocketAddress(source, 0));
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: shop.example.net\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            while (in.read(buf) >= 0) {
                // drain until HAProxy closes
            }
        }
    }

}
