package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Draws docs/img/dashboard.png: the dashboard's panels from real data. Both apps run on an
 * in-process broker, the incident telemetry is played 8x faster than it happened, a real
 * Prometheus scrapes every second, and each panel's query is read back over the run and plotted
 * with gnuplot in the dashboard's layout. Not part of the build; run it by hand:
 * <pre>
 * mvn -B -o -q -pl stream-app -am verify -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=DashboardPictureIT -Dhcwatch.render.dashboard=true
 * </pre>
 */
@EnabledIfSystemProperty(named = "hcwatch.render.dashboard", matches = "true")
class DashboardPictureIT {

    private static final int SPEED = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void drawTheDashboardFromARealRun() throws Exception {
        ExternalTool prometheus = ExternalTool.prometheus();
        ExternalTool gnuplot = ExternalTool.require("gnuplot", "HCWATCH_REQUIRE_GNUPLOT", "Debian: apt-get install gnuplot-nox");
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start()) {
            Topics topics = Topics.defaults();
            List<String> names = new ArrayList<>();
            for (Source s : Source.values()) {
                names.add(topics.input(s));
            }
            names.addAll(List.of(topics.alerts(), topics.incidents(), topics.deadLetters(), "alerts-dlq"));
            kafka.createTopics(1, names);
            Properties app = new Properties();
            app.setProperty("bootstrap.servers", kafka.bootstrapServers());
            app.setProperty("schema.registry.url", "mock://dashboard-picture");
            app.setProperty("application.id", "hcwatch");
            app.setProperty("metrics.host", "127.0.0.1");
            app.setProperty("metrics.port", "0");
            app.setProperty("metrics.kafka.refresh.ms", "1000");
            app.setProperty("state.dir", tmp.resolve("state").toString());
            Properties sinkProps = new Properties();
            sinkProps.setProperty("bootstrap.servers", kafka.bootstrapServers());
            sinkProps.setProperty("schema.registry.url", "mock://dashboard-picture");
            sinkProps.setProperty("sinks", "stdout");
            sinkProps.setProperty("metrics.host", "127.0.0.1");
            sinkProps.setProperty("metrics.port", "0");
            sinkProps.setProperty("metrics.kafka.refresh.ms", "1000");
            try (StreamApp stream = new StreamApp(StreamAppConfig.from(app)); SinkApp sink = new SinkApp(sinkProps)) {
                stream.start();
                sink.start();
                await().atMost(Duration.ofSeconds(90)).until(stream::isReady);
                Process server = startPrometheus(prometheus, stream.metricsPort(), sink.metricsPort());
                try {
                    String api = "http://127.0.0.1:" + prometheusPort;
                    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                            .until(() -> Scrapes.get(api + "/-/ready").statusCode() == 200);
                    long from = Instant.now().getEpochSecond();
                    play(kafka.bootstrapServers(), topics);
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                            .until(() -> Instant.now().getEpochSecond() > from + 200 / SPEED + 8);
                    long to = Instant.now().getEpochSecond();
                    Path data = Files.createDirectories(Path.of("target", "dashboard-data"));
                    for (Map.Entry<String, String> q : panels().entrySet()) {
                        writeSeries(api, q.getValue(), from, to, data.resolve(q.getKey() + ".dat"));
                    }
                    Path png = RepoFiles.resolve("docs/img/dashboard.png");
                    Files.createDirectories(png.getParent());
                    ExternalTool.Result r = gnuplot.run(data, null, Duration.ofSeconds(60),
                            "-e", "out='" + png + "'", RepoFiles.resolve("docs/img/dashboard.gp").toString());
                    assertThat(r.exitCode()).as(r.output()).isZero();
                    System.out.println("wrote " + png + " from " + (to - from) + " s of scrapes");
                } finally {
                    server.destroy();
                    server.waitFor(20, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** The dashboard's queries, with rate windows short enough for a one-second scrape. */
    private static Map<String, String> panels() {
        String tg = "target_group=\"" + TelemetryFixture.TARGET_GROUP + "\"";
        Map<String, String> q = new LinkedHashMap<>();
        q.put("healthy", "hcwatch_targets_healthy{" + tg + "}");
        q.put("registered", "hcwatch_targets_registered{" + tg + "}");
        q.put("failopen", "hcwatch_fail_open{" + tg + "}");
        q.put("p50", "hcwatch_check_latency_seconds{" + tg + ", percentile=\"p50\"}");
        q.put("p95", "hcwatch_check_latency_seconds{" + tg + ", percentile=\"p95\"}");
        q.put("p99", "hcwatch_check_latency_seconds{" + tg + ", percentile=\"p99\"}");
        q.put("timeout", "hcwatch_check_timeout_seconds{" + tg + "}");
        q.put("headroom", "hcwatch_check_headroom_ratio{" + tg + "}");
        q.put("sessions", "hcwatch_frontend_sessions");
        q.put("maxconn", "hcwatch_frontend_maxconn");
        q.put("ratio", "hcwatch_frontend_sessions_ratio");
        q.put("alerts", "sum(increase(hcwatch_alerts_total{status=\"firing\"}[3s]))");
        q.put("parsed", "sum(rate(hcwatch_records_total{outcome=\"parsed\"}[3s]))");
        q.put("rejected", "sum(rate(hcwatch_records_total{outcome=\"rejected\"}[3s]))");
        q.put("lag", "sum(kafka_consumer_fetch_manager_records_lag{job=\"hcwatch-stream-app\","
                + " client_id=~\".*StreamThread-[0-9]+-consumer\"})");
        q.put("delivered", "sum(increase(hcwatch_sink_alerts_delivered_total[3s]))");
        return q;
    }

    private int prometheusPort;

    private Process startPrometheus(ExternalTool prometheus, int streamPort, int sinkPort) throws IOException {
        prometheusPort = ReservedPort.free();
        Path dir = Files.createDirectories(tmp.resolve("prometheus"));
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: hcwatch-stream-app
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                  - job_name: hcwatch-alert-sink
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(streamPort, sinkPort));
        return prometheus.start(dir, dir.resolve("prometheus.log"), "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + prometheusPort);
    }

    /** Produces each line when its event time comes up, SPEED times faster than it happened. */
    private static void play(String bootstrap, Topics topics) throws InterruptedException {
        Instant start = Instant.now().minus(5, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        List<TelemetryFixture.Line> lines = TelemetryFixture.incident(start, topics);
        long eventStart = lines.get(0).timestamp();
        long wallStart = System.currentTimeMillis();
        AtomicInteger next = new AtomicInteger();
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            ticks.scheduleAtFixedRate(() -> {
                long due = eventStart + (System.currentTimeMillis() - wallStart) * SPEED;
                while (next.get() < lines.size() && lines.get(next.get()).timestamp() <= due) {
                    TelemetryFixture.Line l = lines.get(next.getAndIncrement());
                    producer.send(new ProducerRecord<>(l.topic(), null, l.timestamp(), null, l.value()));
                }
                producer.flush();
            }, 0, 100, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> next.get() >= lines.size());
        } finally {
            ticks.shutdownNow();
            ticks.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** "seconds-since-start value" lines, NaN where the series has no sample. */
    private static void writeSeries(String api, String promql, long from, long to, Path out) throws IOException {
        String url = api + "/api/v1/query_range?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                + "&start=" + from + "&end=" + to + "&step=1";
        JsonNode result = JSON.readTree(Scrapes.get(url).body()).path("data").path("result");
        Map<Long, String> values = new LinkedHashMap<>();
        if (result.size() > 0) {
            for (JsonNode v : result.get(0).path("values")) {
                values.put(v.get(0).asLong(), v.get(1).asText());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (long t = from; t <= to; t++) {
            String v = values.getOrDefault(t, "NaN");
            sb.append(String.format(Locale.ROOT, "%d %s%n", (t - from) * SPEED, v.equals("NaN") ? "NaN" : v));
        }
        Files.writeString(out, sb.toString());
    }

}
