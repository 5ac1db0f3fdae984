package io.hcwatch.collect.alb;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.Outgoing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.AnomalyDetection;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetDescription;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealth;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealthDescription;

/**
 * What one target group's successive Describe* answers mean: a HealthCheckResult for every target
 * whose state, reason code or anomaly result changed since it was last published (and once for
 * each target at start), again for an unchanged target once its group's health-check interval has
 * passed since it was last published (the stream app takes a target it has not heard of for a few
 * intervals to have left, and judges a zone healthy only if it was heard of since a failure
 * began: the ALB checked it, so hcwatch should hear of it), and an LbConfig whenever the group's settings, thresholds, registered
 * count or target zones changed. A record that is not delivered is forgotten, so the next poll
 * sends that state again. Polls of one group are serial; the published maps are concurrent because
 * a failed delivery clears an entry from a producer thread.
 */
final class TargetGroupTracker {

    /** Reason published for a target that left the group (AWS's own code for a target not registered). */
    static final String NOT_REGISTERED = "Target.NotRegistered";

    private final ZoneLookup zones;
    private volatile TargetGroupInfo info;
    private final Map<String, String> publishedTargets = new ConcurrentHashMap<>();
    private final Map<String, Long> publishedAt = new ConcurrentHashMap<>();
    private final AtomicReference<LbConfig> publishedConfig = new AtomicReference<>();
    private Map<String, HealthCheckResult> lastResults = Map.of();
    private Integer registered;
    private Map<String, String> targetZones;

    TargetGroupTracker(TargetGroupInfo info, ZoneLookup zones) {
        this.info = info;
        this.zones = zones;
    }

    TargetGroupInfo info() {
        return info;
    }

    /** New settings from the slow calls: an LbConfig when they differ from what was published. */
    List<Outgoing> settings(TargetGroupInfo now, long pollMs) {
        info = now;
        List<Outgoing> out = new ArrayList<>(1);
        config(pollMs, out);
        return out;
    }

    List<Outgoing> health(List<TargetHealthDescription> descriptions, long pollMs) {
        TargetGroupInfo tg = info;
        List<Outgoing> out = new ArrayList<>();
        Map<String, HealthCheckResult> now = new HashMap<>();
        Map<String, String> zoneMap = new TreeMap<>();
        int count = 0;
        for (TargetHealthDescription d : descriptions) {
            TargetDescription t = d.target();
            TargetHealth h = d.targetHealth();
            if (t == null || t.id() == null || h == null) {
                continue;
            }
            TargetState state = AlbChecks.state(h.stateAsString());
            if (AlbChecks.registered(state)) {
                count++;
            }
            ZoneLookup.Placement placement = zones.placement(tg, t);
            String target = targetName(t, placement.ip());
            if (placement.zone() != null) {
                zoneMap.put(t.id(), placement.zone());
                if (placement.ip() != null && t.port() != null) {
                    zoneMap.put(placement.ip() + ":" + t.port(), placement.zone());
                }
            }
            HealthCheckResult r = result(tg, t, h, d.anomalyDetection(), state, target, placement, pollMs);
            now.put(target, r);
            String view = state + "|" + r.getReason() + "|" + r.getAz();
            Long last = publishedAt.get(target);
            if (view.equals(publishedTargets.put(target, view)) && last != null && pollMs - last < intervalMs(tg)) {
                continue;
            }
            publishedAt.put(target, pollMs);
            out.add(new Outgoing(Outgoing.Topic.HEALTH, target, r, pollMs, () -> publishedTargets.remove(target, view)));
        }
        for (Map.Entry<String, HealthCheckResult> gone : lastResults.entrySet()) {
            if (!now.containsKey(gone.getKey())) {
                publishedTargets.remove(gone.getKey());
                publishedAt.remove(gone.getKey());
                HealthCheckResult r = HealthCheckResult.newBuilder(gone.getValue()).setTs(Instant.ofEpochMilli(pollMs))
                        .setState(TargetState.unused).setOutcome(CheckOutcome.other).setReason(NOT_REGISTERED)
                        .setStatusCode(null).build();
                out.add(new Outgoing(Outgoing.Topic.HEALTH, gone.getKey(), r, pollMs, () -> { }));
            }
        }
        lastResults = now;
        registered = count;
        targetZones = zoneMap;
        config(pollMs, out);
        return out;
    }

    /** How often the load balancer checks each target of the group (ALB's default, 30 s, when unknown). */
    private static long intervalMs(TargetGroupInfo tg) {
        Integer interval = tg.check() == null ? null : tg.check().getIntervalMs();
        return interval == null ? 30_000 : interval;
    }

    /**
     * ip:port where the address is known (IP targets, and instance targets whose address EC2 gave),
     * as ALB's health-check and access logs name targets; else id:port (instance id), or the id
     * alone (a Lambda function's ARN).
     */
    static String targetName(TargetDescription t, String ip) {
        String host = ip != null ? ip : t.id();
        return t.port() == null ? host : host + ":" + t.port();
    }

    private HealthCheckResult result(TargetGroupInfo tg, TargetDescription t, TargetHealth h, AnomalyDetection anomaly,
                                     TargetState state, String target, ZoneLookup.Placement placement, long pollMs) {
        String reason = h.reasonAsString();
        if (reason == null && anomaly != null && "anomalous".equals(anomaly.resultAsString())) {
            // a healthy target the load balancer's anomaly detection singles out has no reason code of its own
            reason = "yes".equals(anomaly.mitigationInEffectAsString()) ? "anomalous (mitigation in effect)" : "anomalous";
        }
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(pollMs))
                .setSource("alb")
                .setLb(tg.lb())
                .setTargetGroup(tg.name())
                .setTarget(target)
                .setTargetIp(placement.ip())
                .setPort(t.port())
                .setAz(placement.zone())
                .setOutcome(AlbChecks.outcome(state, reason))
                .setStatusCode(AlbChecks.statusCode(reason, h.description()))
                .setState(state)
                .setReason(reason)
                .setCheck(tg.check())
                .build();
    }

    private void config(long pollMs, List<Outgoing> out) {
        TargetGroupInfo tg = info;
        LbConfig comparable = LbConfig.newBuilder().setKind(ConfigKind.target_group).setId(tg.name()).setTs(Instant.EPOCH)
                .setLb(tg.lb()).setCrossZone(tg.crossZone()).setRegisteredTargets(registered)
                .setUnhealthyStateRouting(tg.unhealthyStateRouting()).setDnsFailover(tg.dnsFailover())
                .setHealthCheck(tg.check()).setTargetZones(targetZones).build();
        LbConfig before = publishedConfig.getAndSet(comparable);
        if (comparable.equals(before)) {
            return;
        }
        LbConfig record = LbConfig.newBuilder(comparable).setTs(Instant.ofEpochMilli(pollMs)).build();
        out.add(new Outgoing(Outgoing.Topic.CONFIG, tg.name(), record, pollMs, () -> publishedConfig.compareAndSet(comparable, null)));
    }
}
