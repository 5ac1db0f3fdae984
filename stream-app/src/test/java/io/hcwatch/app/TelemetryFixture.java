package io.hcwatch.app;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.parse.HaproxyLineFormat;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A few minutes of realistic telemetry, written with the project's own formatters: one ALB target
 * group of six targets over three zones whose health checks pass with normal latency and then all
 * time out together (the "timeout cut below real latency" incident: correlated failure, headroom),
 * one HAProxy frontend whose sessions climb towards maxconn, and a few lines that cannot parse.
 */
final class TelemetryFixture {

    static final String TARGET_GROUP = "prod-web-tg";
    static final String HOST = "lb1";
    static final String FRONTEND = "hc-ping";
    static final int MAXCONN = 2000;
    private static final String LB = "app/prod-web/50dc6c495c0c9188";
    private static final String[] ZONES = {"us-east-1a", "us-east-1b", "us-east-1c"};

    record Line(String topic, long timestamp, byte[] value) {
    }

    private TelemetryFixture() {
    }

    /** Telemetry from {@code start}: 2 minutes healthy, then 40 s of every target timing out. */
    static List<Line> incident(Instant start, Topics topics) {
        Random random = new Random(42);
        List<Line> lines = new ArrayList<>();
        CheckConfig check = CheckConfig.newBuilder().setPath("/health").setIntervalMs(10_000).setTimeoutMs(2_000)
                .setHealthyThreshold(3).setUnhealthyThreshold(2).build();
        LbConfig tg = LbConfig.newBuilder().setKind(ConfigKind.target_group).setId(TARGET_GROUP).setLb(LB)
                .setTs(start.minusSeconds(60)).setCrossZone(true).setRegisteredTargets(6)
                .setUnhealthyStateRouting(Thresholds.newBuilder().setMinHealthyCount(1).build())
                .setDnsFailover(Thresholds.newBuilder().setMinHealthyCount(1).build())
                .setHealthCheck(check).build();
        LbConfig frontend = LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId(HOST + "/" + FRONTEND)
                .setHost(HOST).setFrontend(FRONTEND).setMaxconn(MAXCONN).setTs(start.minusSeconds(60)).build();
        lines.add(text(topics.input(Source.CONFIG), tg.getTs(), LbConfigJson.write(tg)));
        lines.add(text(topics.input(Source.CONFIG), frontend.getTs(), LbConfigJson.write(frontend)));

        long healthyFor = Duration.ofMinutes(2).toMillis();
        long total = healthyFor + Duration.ofSeconds(40).toMillis();
        for (long t = 0; t < total; t += 2_000) {
            for (int target = 0; target < 6; target++) {
                // each target is checked every 10 s, staggered so the group reports every 2 s
                if ((t / 2_000) % 5 != target % 5) {
                    continue;
                }
                boolean cut = t >= healthyFor;
                HealthCheckResult r = HealthCheckResult.newBuilder()
                        .setTs(start.plusMillis(t + random.nextInt(300)))
                        .setSource("alb").setLb(LB).setTargetGroup(TARGET_GROUP)
                        .setTarget(String.format("i-0abc%04d", target)).setTargetIp("10.0." + (target % 3) + "." + (17 + target))
                        .setPort(8080).setAz(ZONES[target % 3])
                        .setOutcome(cut ? CheckOutcome.timeout : CheckOutcome.pass)
                        .setLatencyMs(cut ? 2_000 + random.nextInt(150) : 300 + random.nextInt(700))
                        .setState(cut ? TargetState.unhealthy : TargetState.healthy)
                        .setReason(cut ? "Target.Timeout" : null)
                        .setCheck(check)
                        .setRegisteredAt(start.minus(Duration.ofDays(3)))
                        .build();
                lines.add(text(topics.input(Source.HEALTH), r.getTs(), HealthCheckResultJson.write(r)));
            }
        }

        HaproxyLineFormat haproxy = new HaproxyLineFormat();
        for (int second = 0; second < 60; second++) {
            int feconn = 400 + second * 25;
            for (int i = 0; i < 10; i++) {
                Instant ts = start.plusSeconds(second).plusMillis(i * 100L);
                HaproxyRequest r = HaproxyRequest.newBuilder()
                        .setFormat(HaproxyLogFormat.http).setTs(ts).setHost(HOST).setProcess("haproxy").setPid(4242)
                        .setClientIp("198.51.100." + (10 + random.nextInt(200))).setClientPort(30_000 + random.nextInt(30_000))
                        .setFrontend(FRONTEND).setBackend("app").setServer("web" + (1 + i % 3))
                        .setTr(0).setTw(0).setTc(1).setTrServer(20 + random.nextInt(200)).setTa(30 + random.nextInt(200))
                        .setStatusCode(200).setBytesRead(1200L + random.nextInt(3000)).setTerminationState("----")
                        .setActconn(feconn + 50).setFeconn(feconn).setBeconn(feconn / 2).setSrvConn(feconn / 6).setRetries(0)
                        .setSrvQueue(0).setBackendQueue(0)
                        .setHttpMethod("GET").setHttpUri("/api/cart?id=" + random.nextInt(1000)).setHttpVersion("HTTP/1.1")
                        .build();
                lines.add(text(topics.input(Source.HAPROXY), ts, haproxy.format(r)));
            }
        }

        // inputs that cannot parse: they must be counted and dead-lettered, never dropped
        lines.add(text(topics.input(Source.HAPROXY), start, "this is not a log line"));
        lines.add(text(topics.input(Source.HEALTH), start, "{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":"));
        lines.add(text(topics.input(Source.ALB), start, "https 2026-03-03T14:32:45.120417Z app/prod-web"));
        lines.sort(Comparator.comparingLong(Line::timestamp));
        return lines;
    }

    static void produce(String bootstrapServers, List<Line> lines) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrapServers,
                "linger.ms", 5), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Line line : lines) {
                producer.send(new ProducerRecord<>(line.topic(), null, line.timestamp(), null, line.value()));
            }
            producer.flush();
        }
    }

    private static Line text(String topic, Instant ts, String value) {
        return new Line(topic, ts.toEpochMilli(), value.getBytes(StandardCharsets.UTF_8));
    }
}
