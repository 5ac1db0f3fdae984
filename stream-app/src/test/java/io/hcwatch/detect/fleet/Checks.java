package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import java.time.Instant;

/** Builds health-check results and configs for detector tests. */
final class Checks {

    static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    static final String LB = "app/prod-web/50dc6c495c0c9188";

    private Checks() {
    }

    static HealthCheckResult.Builder check(String tg, String target, String az, long ts, CheckOutcome outcome, int latencyMs) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts))
                .setSource("alb")
                .setLb(LB)
                .setTargetGroup(tg)
                .setTarget(target)
                .setAz(az)
                .setOutcome(outcome)
                .setLatencyMs(latencyMs)
                .setReason(outcome == CheckOutcome.timeout ? "Target.Timeout"
                        : outcome == CheckOutcome.http_status ? "Target.ResponseCodeMismatch" : null)
                .setStatusCode(outcome == CheckOutcome.http_status ? Integer.valueOf(503)
                        : outcome == CheckOutcome.pass ? Integer.valueOf(200) : null);
    }

    static HealthCheckResult pass(String tg, String target, String az, long ts, int latencyMs) {
        return check(tg, target, az, ts, CheckOutcome.pass, latencyMs).setState(TargetState.healthy).build();
    }

    static HealthCheckResult timeout(String tg, String target, String az, long ts) {
        return check(tg, target, az, ts, CheckOutcome.timeout, 2001).setState(TargetState.unhealthy).build();
    }

    static CheckConfig checkConfig(int timeoutMs, int intervalMs) {
        return CheckConfig.newBuilder().setPath("/health").setTimeoutMs(timeoutMs).setIntervalMs(intervalMs)
                .setHealthyThreshold(3).setUnhealthyThreshold(3).build();
    }

    static LbConfig targetGroupConfig(String tg, boolean crossZone, Double routingPercent, Double dnsPercent, long ts) {
        return lbConfig(tg, ts)
                .setCrossZone(crossZone)
                .setUnhealthyStateRouting(percent(routingPercent))
                .setDnsFailover(percent(dnsPercent))
                .build();
    }

    /** A target group's LbConfig with nothing set but who and when. */
    static LbConfig.Builder lbConfig(String tg, long ts) {
        return LbConfig.newBuilder().setKind(ConfigKind.target_group).setId(tg).setLb(LB).setTs(Instant.ofEpochMilli(ts));
    }

    static Thresholds percent(Double minHealthyPercent) {
        return Thresholds.newBuilder().setMinHealthyPercent(minHealthyPercent).setMinHealthyCount(null).build();
    }

    static Thresholds count(int minHealthyCount) {
        return Thresholds.newBuilder().setMinHealthyCount(minHealthyCount).setMinHealthyPercent(null).build();
    }

    /** HAProxy's "backend ... has no server available!". */
    static BackendEvent noServerAvailable(String backend, long ts) {
        return BackendEvent.newBuilder().setTs(Instant.ofEpochMilli(ts)).setSource("haproxy").setHost("lb1").setBackend(backend)
                .setKind(BackendEventKind.no_server_available).setMessage("backend " + backend + " has no server available!").build();
    }

    static String zone(int i, int zones) {
        return "us-east-1" + (char) ('a' + (i % zones));
    }
}
