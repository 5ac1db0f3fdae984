package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EndpointServerTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicBoolean ready = new AtomicBoolean(false);
    private final AtomicReference<List<String>> notes = new AtomicReference<>(List.of());
    private final EndpointServer server = EndpointServer.start("127.0.0.1", 0, registry, ready::get, notes::get);
    private final HttpClient http = HttpClient.newHttpClient();

    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket client : clients) {
            client.close();
        }
        server.close();
    }

    private Socket connect(EndpointServer to, String sends) throws IOException {
        Socket client = new Socket(InetAddress.getLoopbackAddress(), to.port());
        clients.add(client);
        client.getOutputStream().write(sends.getBytes(StandardCharsets.US_ASCII));
        client.getOutputStream().flush();
        return client;
    }

    private HttpResponse<String> request(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthAnswersWhetherOrNotTheAppIsReady() throws Exception {
        assertThat(request("GET", "/health").statusCode()).isEqualTo(200);
        assertThat(request("HEAD", "/health").statusCode()).isEqualTo(200);
    }

    @Test
    void readyFollowsTheSuppliedCondition() throws Exception {
        assertThat(request("GET", "/ready").statusCode()).isEqualTo(503);
        ready.set(true);
        assertThat(request("GET", "/ready").statusCode()).isEqualTo(200);
        ready.set(false);
        assertThat(request("GET", "/ready").statusCode()).isEqualTo(503);
    }

    @Test
    void readyShowsNotesBelowItsVerdictWithoutChangingIt() throws Exception {
        ready.set(true);
        assertThat(request("GET", "/ready").body()).isEqualTo("ready\n");

        notes.set(List.of("pagerduty: 2 partition(s) waiting", "stdout: 1 partition(s) waiting"));
        HttpResponse<String> noted = request("GET", "/ready");

        assertThat(noted.statusCode()).isEqualTo(200);
        assertThat(noted.body()).isEqualTo("ready\npagerduty: 2 partition(s) waiting\nstdout: 1 partition(s) waiting\n");
        ready.set(false);
        assertThat(request("GET", "/ready").body()).startsWith("not ready\npagerduty");
    }

    @Test
    void metricsServesThePrometheusScrapeInBaseUnits() throws Exception {
        registry.counter("hcwatch.sink.alerts.delivered", "sink", "pagerduty").increment(3);

        HttpResponse<String> response = request("GET", "/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).contains("hcwatch_sink_alerts_delivered_total{sink=\"pagerduty\"} 3.0");
    }

    @Test
    void refusesOtherMethodsAndPaths() throws Exception {
        assertThat(request("POST", "/health").statusCode()).isEqualTo(405);
        assertThat(request("GET", "/health/deep").statusCode()).isEqualTo(404);
        assertThat(request("GET", "/").statusCode()).isEqualTo(404);
    }

    // A liveness probe that does not answer gets the pod killed: clients that connect and say nothing, send half a
    // request and stall, or ask for /metrics and never read it must not keep /health from answering
    @Test
    void healthAnswersWhileSlowAndIdleClientsHoldConnections() throws Exception {
        for (int i = 0; i < 100; i++) {
            registry.counter("hcwatch.test.padding", "series", "a-long-label-value-to-make-the-scrape-large-" + i).increment();
        }
        for (int i = 0; i < 20; i++) {
            connect(server, "");
            connect(server, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            connect(server, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
        HttpClient probe = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

        HttpResponse<String> health = probe.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("ok\n");
    }

    @Test
    void aClientThatStallsInItsRequestIsDisconnectedAfterTheReadTimeout() throws Exception {
        try (EndpointServer strict = EndpointServer.start("127.0.0.1", 0, registry, ready::get, notes::get,
                new EndpointServer.Timeouts(Duration.ofMillis(300), Duration.ofSeconds(5)))) {
            Socket stalled = connect(strict, "GET /health HTTP/1.1\r\n");
            stalled.setSoTimeout(30_000);
            InputStream in = stalled.getInputStream();

            // the server closes without an answer; the 30 s is only this test's own bound
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    @Test
    void aRequestHeadLargerThanAnyProbeSendsIsRefused() throws Exception {
        Socket client = connect(server, "GET /health HTTP/1.1\r\nX-Padding: " + "p".repeat(20_000) + "\r\n\r\n");
        client.setSoTimeout(30_000);

        String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

        assertThat(answer).startsWith("HTTP/1.1 431 ");
    }

    @Test
    void answersARawHttp10RequestAndClosesTheConnection() throws Exception {
        Socket client = connect(server, "GET /health HTTP/1.0\r\n\r\n");
        client.setSoTimeout(30_000);

        String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

        assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 3\r\n").endsWith("\r\n\r\nok\n");
    }
}
