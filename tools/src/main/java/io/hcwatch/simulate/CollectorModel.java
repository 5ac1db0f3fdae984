package io.hcwatch.simulate;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.alb.AlbChecks;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.topology.Source;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code ./hcwatch collect alb} publishes for the simulated ALB: every poll (10 s, as the
 * collector's default) it reads each target group's registered targets as DescribeTargetHealth
 * would (state, reason code, zone; IP targets, named ip:port as ALB's logs name them) and
 * publishes a HealthCheckResult for each target whose state or reason changed, and the target
 * group's LbConfig, with its target→zone map, whenever that changed. The per-check detail goes to
 * the ALB health-check logs instead (see {@link AwsDelivery}).
 */
final class CollectorModel {

    static final long POLL_MS = 10_000;

    private final World w;
    private final Map<String, LbConfig> configs = new HashMap<>();
    private final Map<String, LbConfig> publishedConfigs = new HashMap<>();
    private final Map<String, String> published = new HashMap<>();

    CollectorModel(World w) {
        this.w = w;
    }

    void begin() {
        w.every(w.start(), POLL_MS, this::poll);
    }

    /** The target group's settings changed (or are first known): published at once, with the current zone map. */
    void configured(LbConfig config, AlbTargetGroup tg) {
        configs.put(config.getId(), config);
        publishConfig(tg, w.now());
    }

    private void poll() {
        long now = w.now();
        for (AlbTargetGroup tg : w.alb.groups) {
            for (AlbTarget t : tg.targets) {
                TargetState state = t.draining ? TargetState.draining : t.state;
                String reason = reason(t, state);
                String key = tg.name + "/" + t.address();
                String seen = state + "/" + reason;
                if (!seen.equals(published.put(key, seen))) {
                    w.engine.emit(Source.HEALTH, now, t.address(), HealthCheckResultJson.write(result(tg, t, state, reason, now)));
                }
            }
            publishConfig(tg, now);
        }
    }

    private void publishConfig(AlbTargetGroup tg, long now) {
        LbConfig base = configs.get(tg.name);
        if (base == null) {
            return;
        }
        Map<String, String> zones = new LinkedHashMap<>();
        for (AlbTarget t : tg.targets) {
            if (!t.draining) {
                zones.put(t.ip, AlbModel.zoneName(t.zone));
                zones.put(t.address(), AlbModel.zoneName(t.zone));
            }
        }
        LbConfig comparable = LbConfig.newBuilder(base).setTs(Instant.EPOCH).setTargetZones(zones).build();
        if (Objects.equals(comparable, publishedConfigs.put(tg.name, comparable))) {
            return;
        }
        LbConfig record = LbConfig.newBuilder(comparable).setTs(Instant.ofEpochMilli(now)).build();
        w.engine.emit(Source.CONFIG, now, record.getId(), LbConfigJson.write(record));
    }

    private static String reason(AlbTarget t, TargetState state) {
        return switch (state) {
            case initial -> "Elb.InitialHealthChecking";
            case unhealthy -> t.failReason;
            case draining -> "Target.DeregistrationInProgress";
            default -> null;
        };
    }

    private static HealthCheckResult result(AlbTargetGroup tg, AlbTarget t, TargetState state, String reason, long now) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(now))
                .setSource("alb")
                .setLb(World.LB)
                .setTargetGroup(tg.name)
                .setTarget(t.address())
                .setTargetIp(t.ip)
                .setPort(t.port)
                .setAz(AlbModel.zoneName(t.zone))
                .setOutcome(AlbChecks.outcome(state, reason))
                .setState(state)
                .setReason(reason)
                .setCheck(tg.check.toAvro())
                .setRegisteredAt(Instant.ofEpochMilli(t.registeredAt))
                .build();
    }
}
