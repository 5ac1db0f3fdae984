package io.hcwatch.topology;

import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.traffic.CardinalityLimits;

/**
 * Whether one input partition takes a decoded record in: each kind names target groups, targets,
 * HAProxy hosts or frontends, and a partition takes only so many of each ({@link CardinalityLimits}),
 * so a producer minting names cannot grow the monitors' state without bound.
 */
final class Admission implements Decoded.Cases<String> {

    private final CardinalityLimits.Limits limits;
    private final CardinalityLimits cardinality;

    Admission(CardinalityLimits.Limits limits) {
        this.limits = limits;
        this.cardinality = new CardinalityLimits(limits);
    }

    /** The kind whose limit {@code record} would pass ({@link CardinalityLimits#TARGET_GROUP} ...), or null when it is taken in. */
    String refusedKind(Decoded record) {
        return record.accept(this);
    }

    /** As {@link #refusedKind}, for a target named by a check that did not parse. */
    String refusedTarget(String targetGroup, String target, long time) {
        return cardinality.targetGroup(targetGroup, target, time);
    }

    /** What a refused record's dead letter says: which name was one too many, and the setting that says how many. */
    String refusal(String kind) {
        return "names one " + kind.replace('_', ' ') + " more than this partition takes (" + setting(kind) + ")";
    }

    private String setting(String kind) {
        return switch (kind) {
            case CardinalityLimits.TARGET_GROUP -> "limits.target-groups=" + limits.targetGroups();
            case CardinalityLimits.TARGET -> "limits.targets-per-group=" + limits.targetsPerGroup();
            case CardinalityLimits.HOST -> "limits.hosts=" + limits.hosts();
            default -> "limits.frontends-per-host=" + limits.frontendsPerHost();
        };
    }

    @Override
    public String albLine(AlbTrafficLine line) {
        return cardinality.targetGroup(line.targetGroup(), line.targetIp(), line.time());
    }

    @Override
    public String haproxyLine(HaproxyLine line) {
        HaproxyRequest h = line.request();
        long ts = line.eventTime();
        String host = cardinality.host(h.getHost(), h.getFrontend(), ts);
        return host != null ? host : cardinality.targetGroup(h.getBackend(), h.getServer(), ts);
    }

    @Override
    public String check(Check check) {
        HealthCheckResult h = check.result();
        return cardinality.targetGroup(h.getTargetGroup(), h.getTarget(), check.eventTime());
    }

    @Override
    public String backendNotice(BackendNotice notice) {
        return cardinality.targetGroup(notice.event().getBackend(), null, notice.eventTime());
    }

    @Override
    public String config(LoadBalancerConfig config) {
        LbConfig c = config.config();
        long ts = config.eventTime();
        return c.getKind() == ConfigKind.target_group ? cardinality.targetGroup(c.getId(), null, ts)
                : cardinality.host(Routing.hostOf(c), c.getFrontend(), ts);
    }

    /** Not limited: polls come from hcwatch's own collector, one host each. */
    @Override
    public String poll(Poll poll) {
        return null;
    }
}
