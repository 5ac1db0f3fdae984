package io.hcwatch.detect.fleet;

import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Judging;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.MonitoredCodec;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One target group's state, built record by record through {@link FleetDetection} for the
 * detectors' table tests. Targets are named after their zone: {@code a-0, a-1, ...} in
 * us-east-1a; zone {@code ?} has no zone. Layouts and failures read {@code "a=4,b=3,c=3"}.
 */
final class Fleet {

    static final String TG = "prod-web-tg";
    static final FleetSettings SETTINGS = FleetSettings.defaults();
    static final FleetDiagnostician DIAGNOSTICIAN = new FleetDiagnostician(SETTINGS);
    private static final MonitoredCodec<FleetState> CODEC = TopologyFactory.fleetCodec();

    final FleetDetection detection = new FleetDetection(SETTINGS);
    final FleetState state;
    private final String source;
    private final Map<String, String> ips = new HashMap<>();

    private Fleet(String name, String source) {
        this.state = detection.newState(name, null);
        this.source = source;
    }

    /** An ALB target group (its checks come from the ALB). */
    static Fleet alb() {
        return new Fleet(TG, "alb");
    }

    /** An HAProxy backend (its checks come from HAProxy's log). */
    static Fleet haproxy(String backend) {
        return new Fleet(backend, "haproxy");
    }

    static String az(String zone) {
        return "?".equals(zone) ? null : "us-east-1" + zone;
    }

    /** {@code "a=4,b=3"} in order. */
    static Map<String, Integer> counts(String layout) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (layout.isBlank() || layout.equals("none")) {
            return out;
        }
        for (String part : layout.split(",")) {
            String[] kv = part.trim().split("=");
            out.put(kv[0], Integer.parseInt(kv[1]));
        }
        return out;
    }

    /** Every target of the layout passes a check at {@code at}, marked healthy. */
    Fleet healthy(String layout, long at) {
        return checkAll(layout, at, CheckOutcome.pass, 100, TargetState.healthy);
    }

    /** One round of checks at {@code at}: the first targets of each zone in {@code failing} time out, the others pass. */
    Fleet round(String layout, String failing, long at) {
        return round(layout, failing, at, 100, CheckOutcome.timeout, 2001);
    }

    /**
     * One round of checks at {@code at}: the first targets of each zone in {@code failing} fail with
     * {@code failure} in {@code failLatencyMs}, marked unhealthy; the others pass in {@code passLatencyMs}.
     */
    Fleet round(String layout, String failing, long at, int passLatencyMs, CheckOutcome failure, int failLatencyMs) {
        Map<String, Integer> fail = counts(failing);
        counts(layout).forEach((zone, n) -> {
            for (int k = 0; k < n; k++) {
                boolean fails = k < fail.getOrDefault(zone, 0);
                apply(check(zone, zone + "-" + k, at, fails ? failure : CheckOutcome.pass, fails ? failLatencyMs : passLatencyMs)
                        .setState(fails ? TargetState.unhealthy : TargetState.healthy).build());
            }
        });
        return this;
    }

    /** The first targets of each zone time out at {@code at}, marked unhealthy. */
    Fleet failing(String counts, long at) {
        return checkAll(counts, at, CheckOutcome.timeout, 2001, TargetState.unhealthy);
    }

    /** The first targets of each zone get one check at {@code at}. */
    Fleet checkAll(String counts, long at, CheckOutcome outcome, int latencyMs, TargetState state) {
        counts(counts).forEach((zone, n) -> {
            for (int k = 0; k < n; k++) {
                apply(check(zone, zone + "-" + k, at, outcome, latencyMs).setState(state).build());
            }
        });
        return this;
    }

    /** A check of {@code target} in {@code zone}, with its address; the caller sets its state. */
    HealthCheckResult.Builder check(String zone, String target, long at, CheckOutcome outcome, int latencyMs) {
        HealthCheckResult.Builder b = Checks.check(state.targetGroup, target, az(zone), at, outcome, latencyMs)
                .setSource(source).setTargetIp(ip(target)).setPort(8080);
        return "haproxy".equals(source) ? b.setLb("lb1") : b;
    }

    String ip(String target) {
        return ips.computeIfAbsent(target, t -> "10.0.0." + (ips.size() + 1));
    }

    /** One second of access logs at {@code at}: requests per target, all succeeding, and 503s with no target. */
    Fleet traffic(long at, Map<String, Long> requestsByTarget, long noTarget503) {
        Map<String, TargetCount> byTarget = new LinkedHashMap<>();
        long requests = noTarget503;
        for (Map.Entry<String, Long> e : requestsByTarget.entrySet()) {
            byTarget.put(ip(e.getKey()) + ":8080", new TargetCount(e.getValue(), e.getValue(), 10.0 * e.getValue(), java.nio.ByteBuffer.allocate(0)));
            requests += e.getValue();
        }
        return apply(new TargetTraffic(state.targetGroup, Checks.LB, at, requests, requests - noTarget503, noTarget503,
                noTarget503, byTarget, null));
    }

    /** One second of access logs at {@code at}, of which {@code succeeded} succeed. */
    Fleet requests(long at, long requests, long succeeded) {
        return apply(new TargetTraffic(state.targetGroup, Checks.LB, at, requests, succeeded, requests - succeeded, 0L, Map.of(), null));
    }

    /** Takes in a record at its own event time. */
    Fleet apply(FleetInput record) {
        detection.apply(state, record, record.eventTime());
        return this;
    }

    Fleet apply(HealthCheckResult check) {
        return apply(new Check(check));
    }

    Fleet apply(LbConfig config) {
        return apply(new LoadBalancerConfig(config));
    }

    Fleet apply(BackendEvent event) {
        return apply(new BackendNotice(event));
    }

    Fleet apply(TargetTraffic traffic) {
        return apply(new TargetSummary(traffic));
    }

    /** Evaluation steps every eval.step in [from, to]. */
    Fleet steps(long from, long to) {
        for (long at = from; at <= to; at += SETTINGS.stepMillis()) {
            detection.step(state, at);
        }
        return this;
    }

    List<Finding> judge(Detector<FleetState> detector, long now) {
        return Judging.judgePurely(detector, state, now, CODEC);
    }

    /**
     * The diagnostician's verdict at {@code now} on the failing targets (of {@code zone} alone, as
     * for a zonal_failure, when given), checked as {@link #judge} checks findings.
     */
    Diagnosis diagnose(long now, String zone) {
        return Judging.purely((s, at) -> {
            FailingTargets failing = zone == null ? failingTargets(at) : failingTargets(at).inZone(az(zone));
            return DIAGNOSTICIAN.diagnose(s, failing, at, zone != null);
        }, state, now, CODEC);
    }

    FailingTargets failingTargets(long now) {
        return FailingTargets.of(state, now, SETTINGS.correlated().windowMillis(), SETTINGS.registry().newTargetAgeMillis());
    }
}
