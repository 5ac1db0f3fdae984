package io.hcwatch.observability;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    @AfterEach
    void stop() {
        server.close();
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
}
