package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.observability.MonitoringFiles;
import io.hcwatch.observability.Scrapes;
import io.hcwatch.sink.SinkApp;
import io.hcwatch.testsupport.ExternalTool;
import io.hcwatch.testsupport.RepoFiles;
import io.hcwatch.testsupport.ReservedPort;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both apps running on a real in-process broker with a few minutes of incident telemetry flowing:
 * their scrapes pass {@code promtool check metrics}, carry the detector gauges, hold every metric
 * the dashboard and the alert rules use, and a real Prometheus server scrapes them and answers.
 */
class ObservabilityIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path tmp;
    private static EmbeddedKafkaBroker kafka;
    private static StreamApp stream;
    private static SinkApp sink;
    private static String streamScrape;
    private static String sinkScrape;
    /** Fail-open lasts until the silent targets leave the registry (3 check intervals), so it is caught while it holds. */
    private static volatile boolean failOpenSeen;

    @BeforeAll
    static void startBothAppsAndFeedThemAnIncident() throws Exception {
        kafka = EmbeddedKafkaBroker.start();
        Topics topics = Topics.defaults();
        List<String> names = new ArrayList<>();
        for (Source s : Source.values()) {
            names.add(topics.input(s));
        }
        // one partition each: a multi-partition backlog read at once interleaves event times beyond the grace period
        names.addAll(List.of(topics.alerts(), topics.incidents(), topics.deadLetters(), "alerts-dlq"));
        kafka.createTopics(1, names);

        Properties app = new Properties();
        app.setProperty("bootstrap.servers", kafka.bootstrapServers());
        app.setProperty("schema.registry.url", "mock://observability-it");
        app.setProperty("application.id", "hcwatch-observability-it");
        app.setProperty("metrics.host", "127.0.0.1");
        app.setProperty("metrics.port", "0");
        app.setProperty("metrics.kafka.refresh.ms", "1000");
        app.setProperty("state.dir", tmp.resolve("state").toString());
        stream = new StreamApp(StreamAppConfig.from(app));
        stream.start();

        Properties sinkProps = new Properties();
        sinkProps.setProperty("bootstrap.servers", kafka.bootstrapServers());
        sinkProps.setProperty("schema.registry.url", "mock://observability-it");
        sinkProps.setProperty("sinks", "stdout");
        sinkProps.setProperty("metrics.host", "127.0.0.1");
        sinkProps.setProperty("metrics.port", "0");
        sinkProps.setProperty("metrics.kafka.refresh.ms", "1000");
        sink = new SinkApp(sinkProps);
        sink.start();

        await().atMost(PATIENCE).until(stream::isReady);
        Instant start = Instant.now().minus(10, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        TelemetryFixture.produce(kafka.bootstrapServers(), TelemetryFixture.incident(start, topics));

        String tg = "target_group=\"" + TelemetryFixture.TARGET_GROUP + "\"";
        String[] last = {""};
        try {
            awaitTheIncident(tg, last);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the incident's picture did not show; the stream app's last scrape: " + last[0].lines()
                    .filter(l -> l.startsWith("hcwatch_") || l.contains("health-check-results")).toList(), e);
        }
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).until(() -> {
            // the sink pages the incident (its type tag is the incident's headline), read from the incidents topic
            String s = Scrapes.metrics(sink.metricsPort());
            return Scrapes.sum(s, "hcwatch_sink_alerts_delivered_total") > 0
                    && Scrapes.value(s, "kafka_consumer_fetch_manager_records_lag", "topic=\"incidents\"") != null;
        });
        sinkScrape = Scrapes.metrics(sink.metricsPort());
        Path out = Path.of("target", "scrapes");
        Files.createDirectories(out);
        Files.writeString(out.resolve("stream-app.prom"), streamScrape);
        Files.writeString(out.resolve("alert-sink.prom"), sinkScrape);
    }

    /**
     * Until the stream app's scrape shows the whole incident (fail-open seen, no healthy target, a
     * correlated failure), keeping that scrape: once the input has ended, silence moves the monitors'
     * clocks on with the wall clock and the incident ages out of the latency window and the registry,
     * so a scrape taken later (after the sink, on a slow machine) would show less of it.
     */
    private static void awaitTheIncident(String tg, String[] last) {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
            String s = Scrapes.metrics(stream.metricsPort());
            last[0] = s;
            if (Double.valueOf(1).equals(Scrapes.value(s, "hcwatch_fail_open", tg))) {
                failOpenSeen = true;
            }
            boolean shown = failOpenSeen && Double.valueOf(0).equals(Scrapes.value(s, "hcwatch_targets_healthy", tg))
                    && Scrapes.sum(s, "hcwatch_alerts_total", "type=\"correlated_failure\"", "status=\"firing\"") > 0
                    && Scrapes.value(s, "hcwatch_frontend_sessions_ratio") != null
                    && Scrapes.value(s, "kafka_consumer_fetch_manager_records_lag", "topic=\"health-check-results\"") != null;
            if (shown) {
                streamScrape = s;
            }
            return shown;
        });
    }

    @AfterAll
    static void stop() {
        if (sink != null) {
            sink.close();
        }
        if (stream != null) {
            stream.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void theDetectorGaugesShowTheIncidentPerTargetGroupAndFrontend() {
        String tg = "target_group=\"" + TelemetryFixture.TARGET_GROUP + "\"";
        assertThat(Scrapes.value(streamScrape, "hcwatch_targets_registered", tg)).isEqualTo(6.0);
        assertThat(Scrapes.value(streamScrape, "hcwatch_check_timeout_seconds", tg)).isEqualTo(2.0);
        assertThat(Scrapes.value(streamScrape, "hcwatch_check_latency_seconds", tg, "percentile=\"p99\""))
                .isBetween(1.9, 2.3);
        assertThat(Scrapes.value(streamScrape, "hcwatch_check_headroom_ratio", tg)).isGreaterThan(0.9);
        assertThat(failOpenSeen).as("hcwatch_fail_open was 1 once every target failed").isTrue();
        assertThat(Scrapes.value(streamScrape, "hcwatch_fail_open", tg)).isNotNull();
        String fe = "frontend=\"" + TelemetryFixture.FRONTEND + "\"";
        assertThat(Scrapes.value(streamScrape, "hcwatch_frontend_maxconn", fe)).isEqualTo(2000.0);
        // sessions are the highest feconn of the last 2 s of event time: 0 once the logs have stopped
        assertThat(Scrapes.value(streamScrape, "hcwatch_frontend_sessions_ratio", fe)).isBetween(0.0, 1.0);
        assertThat(Scrapes.sum(streamScrape, "hcwatch_alerts_total", "type=\"socket_slot_exhaustion\"")).isPositive();
        assertThat(Scrapes.value(streamScrape, "hcwatch_records_total", "source=\"haproxy\"", "outcome=\"rejected\""))
                .isEqualTo(1.0);
        assertThat(Scrapes.value(streamScrape, "hcwatch_records_rejected_total", "source=\"health\"", "reason=\"bad_json\""))
                .isEqualTo(1.0);
        assertThat(Scrapes.value(streamScrape, "hcwatch_records_late_total", "monitor=\"fleet\"")).isZero();
        assertThat(Scrapes.value(streamScrape, "hcwatch_ready")).isEqualTo(1.0);
        assertThat(Scrapes.value(streamScrape, "hcwatch_stream_state", "state=\"running\"")).isEqualTo(1.0);
        assertThat(Scrapes.value(sinkScrape, "hcwatch_ready")).isEqualTo(1.0);
    }

    @Test
    void noSeriesIsTaggedWithAClientAddressOrATarget() {
        for (String scrape : List.of(streamScrape, sinkScrape)) {
            assertThat(scrape.lines().filter(l -> l.startsWith("hcwatch_")))
                    .noneMatch(l -> l.contains("198.51.100.") || l.contains("i-0abc") || l.contains("10.0."));
        }
    }

    @Test
    void theStreamAppScrapePassesPromtoolWithNoWarningAboutHcwatchMetrics() {
        checkMetrics("stream-app", streamScrape);
    }

    @Test
    void theSinkScrapePassesPromtoolWithNoWarningAboutHcwatchMetrics() {
        checkMetrics("alert-sink", sinkScrape);
    }

    private static void checkMetrics(String app, String scrape) {
        ExternalTool promtool = ExternalTool.promtool();
        ExternalTool.Result r = promtool.run(tmp, scrape, Duration.ofSeconds(60), "check", "metrics");
        // exit 3 = lint warnings only; 1 = the scrape does not parse
        assertThat(r.exitCode()).as("promtool check metrics on %s:%n%s", app, r.output()).isIn(0, 3);
        List<String> ours = r.output().lines().filter(l -> l.startsWith("hcwatch_")).toList();
        assertThat(ours).as("promtool warnings about hcwatch's own metrics (%s)", app).isEmpty();
        List<String> thirdParty = r.output().lines().filter(l -> !l.isBlank()).toList();
        System.out.println("promtool check metrics on " + app + ": exit " + r.exitCode() + ", " + thirdParty.size()
                + " third-party warnings");
        thirdParty.forEach(l -> System.out.println("  " + l));
    }

    @Test
    void everyMetricTheDashboardAndTheAlertRulesUseIsInARealScrape() throws IOException {
        Set<String> exported = new TreeSet<>(Scrapes.sampleNames(streamScrape));
        exported.addAll(Scrapes.sampleNames(sinkScrape));
        exported.add("up");
        Set<String> used = new TreeSet<>();
        // the collectors' panels and rules read the collectors' metrics (CollectorMetricsTest, HaproxyCollectorIT)
        for (String expr : MonitoringFiles.dashboardExpressions()) {
            MonitoringFiles.metricNames(expr).stream().filter(name -> !name.startsWith("hcwatch_collector_")).forEach(used::add);
        }
        for (String expr : MonitoringFiles.ruleExpressions(group -> !group.equals("hcwatch-collectors"))) {
            used.addAll(MonitoringFiles.metricNames(expr));
        }
        assertThat(used).as("metric names found in the dashboard and rules").hasSizeGreaterThan(15);
        assertThat(used).as("metrics used but not exported by either app").isSubsetOf(exported);
    }

    @Test
    void aRealPrometheusScrapesBothAppsEvaluatesTheRulesAndAnswersQueries() throws Exception {
        ExternalTool prometheus = ExternalTool.prometheus();
        int port = ReservedPort.free();
        Path dir = Files.createDirectories(tmp.resolve("prometheus"));
        Path rules = RepoFiles.resolve("prometheus/rules/hcwatch.rules.yml");
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: hcwatch-stream-app
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                  - job_name: hcwatch-alert-sink
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(rules, stream.metricsPort(), sink.metricsPort()));
        Process server = prometheus.start(dir, dir.resolve("prometheus.log"),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--storage.tsdb.retention.time=1h",
                "--web.listen-address=127.0.0.1:" + port);
        try {
            String api = "http://127.0.0.1:" + port;
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> Scrapes.get(api + "/-/ready").statusCode() == 200);
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).ignoreExceptions().untilAsserted(() -> {
                JsonNode up = query(api, "up");
                assertThat(up).hasSize(2);
                assertThat(up).allSatisfy(s -> assertThat(s.path("value").get(1).asText()).isEqualTo("1"));
            });
            // Prometheus starts after the incident's input has ended, and by then wall-clock silence may
            // have aged the targets out of the gauges (a loaded machine starts it later): ask for what
            // does not age, the counters of what the incident did, and for the gauges' series only
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).ignoreExceptions().untilAsserted(() -> {
                JsonNode healthy = query(api, "hcwatch_targets_healthy{target_group=\"" + TelemetryFixture.TARGET_GROUP + "\"}");
                assertThat(healthy).hasSize(1);
                assertThat(healthy.get(0).path("metric").path("job").asText()).isEqualTo("hcwatch-stream-app");
                JsonNode fired = query(api, "sum(hcwatch_alerts_total{job=\"hcwatch-stream-app\",type=\"correlated_failure\","
                        + "status=\"firing\"})");
                assertThat(fired).hasSize(1);
                assertThat(Double.parseDouble(fired.get(0).path("value").get(1).asText())).isGreaterThanOrEqualTo(1);
                JsonNode rejected = query(api, "hcwatch_records_rejected_total{source=\"health\",reason=\"bad_json\"}");
                assertThat(rejected).hasSize(1);
                assertThat(rejected.get(0).path("value").get(1).asText()).isEqualTo("1");
                JsonNode delivered = query(api, "sum(hcwatch_sink_alerts_delivered_total{job=\"hcwatch-alert-sink\"})");
                assertThat(delivered).hasSize(1);
                assertThat(Double.parseDouble(delivered.get(0).path("value").get(1).asText())).isGreaterThanOrEqualTo(1);
            });
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(500)).ignoreExceptions().untilAsserted(() -> {
                JsonNode groups = JSON.readTree(Scrapes.get(api + "/api/v1/rules").body()).path("data").path("groups");
                assertThat(groups).isNotEmpty();
                List<String> unhealthy = new ArrayList<>();
                int evaluated = 0;
                for (JsonNode g : groups) {
                    for (JsonNode rule : g.path("rules")) {
                        if (!rule.path("lastEvaluation").asText().startsWith("0001")) {
                            evaluated++;
                        }
                        if (!"ok".equals(rule.path("health").asText())) {
                            unhealthy.add(rule.path("name").asText() + ": " + rule.path("lastError").asText());
                        }
                    }
                }
                assertThat(unhealthy).as("rules that failed to evaluate").isEmpty();
                assertThat(evaluated).isGreaterThan(0);
            });
        } finally {
            server.destroy();
            if (!server.waitFor(20, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static JsonNode query(String api, String promql) throws IOException {
        String body = Scrapes.get(api + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).body();
        JsonNode root = JSON.readTree(body);
        assertThat(root.path("status").asText()).as(body).isEqualTo("success");
        return root.path("data").path("result");
    }

}
