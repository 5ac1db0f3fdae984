package io.hcwatch.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.config.Settings;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.topology.Source;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
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
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HAProxy 2.6 serves the same traffic through three frontends that log it with
 * {@code option httplog}, a custom text log-format and a hand-written JSON log-format: read with
 * the formats declared as haproxy.cfg has them, every line parses, the three give the same
 * requests, and replayed they raise the same alerts (a client flooding each frontend).
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

    @TempDir
    Path dir;

    private Process haproxy;
    private HttpServer backend;
    private DatagramSocket syslog;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() throws Exception {
        pool.shutdownNow();
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
        int[] ports = {freePort(), freePort(), freePort()};
        Files.writeString(dir.resolve("haproxy.cfg"), String.join("\n",
                "global", "    log 127.0.0.1:" + syslog.getLocalPort() + " local0", "    maxconn 2000",
                "defaults", "    mode http", "    log global", "    option httplog", "    timeout connect 2s",
                "    timeout client 5s", "    timeout server 5s",
                "frontend fe_httplog", "    bind 127.0.0.1:" + ports[0], "    default_backend app",
                "frontend fe_custom", "    bind 127.0.0.1:" + ports[1], "    log-format " + CUSTOM, "    default_backend app",
                "frontend fe_json", "    bind 127.0.0.1:" + ports[2], "    log-format " + JSON, "    default_backend app",
                "backend app", "    server web1 127.0.0.1:" + backend.getAddress().getPort(), ""));
        haproxy = tool.start(dir, dir.resolve("haproxy.out"), "-db", "-f", dir.resolve("haproxy.cfg").toString());
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> answers(ports[0]) && answers(ports[1]) && answers(ports[2]));

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
        Map<String, String> declared = Map.of("fe_custom", CUSTOM, "fe_json", JSON);
        HaproxyLogParser parser = new HaproxyLogParser(LogDates.live(Clock.systemUTC()), DeclaredLogFormats.of(declared));
        Map<String, List<String>> requests = new TreeMap<>();
        Map<String, List<String>> alerts = new TreeMap<>();
        for (String frontend : FRONTENDS) {
            List<String> lines = byFrontend.get(frontend);
            assertThat(lines).as(frontend).hasSize(FLOOD + TRICKLE);
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
            requests.put(frontend, seen.stream().sorted().toList());
            alerts.put(frontend, replay(frontend, lines, declared));
        }
        assertThat(requests.get("fe_custom")).isEqualTo(requests.get("fe_httplog"));
        assertThat(requests.get("fe_json")).isEqualTo(requests.get("fe_httplog"));
        assertThat(requests.get("fe_httplog")).anyMatch(r -> r.startsWith("127.0.0.1 200 app web1 GET /api/items/1?q=%22x%22 HTTP/1.1 ---- "))
                .anyMatch(r -> r.startsWith("127.0.0.1 503 app web1 GET /fail/0 HTTP/1.1 ---- "));
        assertThat(alerts.get("fe_httplog")).contains("client_flood firing 127.0.0.1");
        assertThat(alerts.get("fe_custom")).isEqualTo(alerts.get("fe_httplog"));
        assertThat(alerts.get("fe_json")).isEqualTo(alerts.get("fe_httplog"));
    }

    /** The frontend's lines through replay: the alerts raised, as type, status and client. */
    private List<String> replay(String frontend, List<String> lines, Map<String, String> declared) throws IOException {
        Path file = Files.write(dir.resolve(frontend + ".log"), lines, StandardCharsets.UTF_8);
        List<DeadLetter> dead = new ArrayList<>();
        List<Alert> alerts = new ReplayRun(new ReplayInputs().add(Source.HAPROXY, file),
                Settings.defaults().with(Map.of("flood.min-rate", "10", "flood.window", "10s")),
                LogDates.live(Clock.systemUTC()), DeclaredLogFormats.of(declared)).run(dead::add, new ReplaySummary());
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
