package io.hcwatch.topology;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.parse.ParseResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Record;

/** Records of each kind an ingest takes in, and what it sends, for the tests of its stages. */
final class IngestRecords {

    static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();

    /** Decoders for a topology fed only Avro health-check results: every other source's input is rejected. */
    static Map<Source, Decoder> healthAvroOnly(Map<String, Object> serdeConfig) {
        Map<Source, Decoder> decoders = new EnumMap<>(Source.class);
        for (Source s : Source.values()) {
            decoders.put(s, IngestRecords::notAvro);
        }
        AvroOrJsonDecoder<HealthCheckResult> avro = new AvroOrJsonDecoder<>(HealthCheckResult.class, serdeConfig,
                IngestRecords::notAvro, "health-check-results");
        decoders.put(Source.HEALTH, raw -> avro.decode(raw).map(Check::new));
        return decoders;
    }

    private static <T> ParseResult<T> notAvro(byte[] raw) {
        return ParseResult.rejected("not_json", "this test sends Avro only");
    }

    /** Everything an {@link Outbox} forwarded, in order. */
    final List<Record<String, Routed>> sent = new ArrayList<>();

    Outbox outbox(String upstream) {
        return new Outbox(sent::add, upstream);
    }

    /** What was sent, as {@code DESTINATION key kind@seconds-after-T0}. */
    List<String> described() {
        List<String> out = new ArrayList<>();
        for (Record<String, Routed> r : sent) {
            Routed routed = r.value();
            out.add(routed.destination() + " " + r.key() + " " + (routed.envelope() == null ? "dead-letter"
                    : routed.envelope().kind() + "@" + (r.timestamp() - T0) / 1000.0));
        }
        return out;
    }

    static AlbTrafficLine alb(String targetGroup, String targetIp, long at) {
        return new AlbTrafficLine(at, "app/prod-web/50dc6c495c0c9188", targetGroup, "198.51.100.7", targetIp, 8080, 0.2, 200, "GET",
                "https://shop.example.net:443/");
    }

    static HaproxyLine haproxy(String host, String frontend, String backend, long at) {
        return new HaproxyLine(HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(at))
                .setHost(host).setProcess("haproxy").setFrontend(frontend).setBackend(backend).setServer("web1").setFeconn(10)
                .setActconn(12).setStatusCode(200).setClientIp("198.51.100.9").setTerminationState("----").build());
    }

    static Check check(String targetGroup, String target, long at) {
        return new Check(checkResult(targetGroup, target, at));
    }

    static HealthCheckResult checkResult(String targetGroup, String target, long at) {
        return HealthCheckResult.newBuilder().setTs(Instant.ofEpochMilli(at)).setSource("alb").setTargetGroup(targetGroup)
                .setTarget(target).setOutcome(CheckOutcome.pass).build();
    }

    /** An ALB check of prod-web-tg: passing in 100 ms, or a timeout after 2 s that left the target unhealthy. */
    static HealthCheckResult albCheck(String target, String az, long at, boolean ok) {
        return HealthCheckResult.newBuilder().setTs(Instant.ofEpochMilli(at)).setSource("alb").setTargetGroup("prod-web-tg")
                .setTarget(target).setAz(az).setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout).setLatencyMs(ok ? 100 : 2000)
                .setState(ok ? io.hcwatch.avro.v1.TargetState.healthy : io.hcwatch.avro.v1.TargetState.unhealthy)
                .setReason(ok ? null : "Target.Timeout").build();
    }

    static BackendNotice noServer(String backend, long at) {
        return new BackendNotice(new BackendEvent(Instant.ofEpochMilli(at), "haproxy", "lb1", backend,
                BackendEventKind.no_server_available, "backend " + backend + " has no server available!"));
    }

    static LoadBalancerConfig frontendConfig(String id, String host, long at) {
        return new LoadBalancerConfig(LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId(id).setHost(host)
                .setFrontend("fe").setMaxconn(200).setTs(Instant.ofEpochMilli(at)).build());
    }

    static LoadBalancerConfig targetGroupConfig(String id, long at) {
        return new LoadBalancerConfig(LbConfig.newBuilder().setKind(ConfigKind.target_group).setId(id)
                .setTs(Instant.ofEpochMilli(at)).build());
    }

    static Poll poll(String host, long at) {
        return new Poll(HaproxyStats.newBuilder().setTs(Instant.ofEpochMilli(at)).setHost(host).setFrontends(new ArrayList<>())
                .setBackends(new ArrayList<>()).build());
    }
}
