package io.hcwatch.detect.fleet;

import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.traffic.LatencySketch;
import io.hcwatch.traffic.TrafficCombiner;
import java.util.List;
import java.util.Map;

/**
 * Everything hcwatch knows about one target group (or HAProxy backend), in named parts: the
 * pool it belongs to ({@link Pool}), its targets ({@link Registry}), its health-check settings
 * ({@link HealthCheck}), check latencies ({@link Latencies}), traffic ({@link TrafficWindow}),
 * what it looked like at each step ({@link StepHistory}) and what HAProxy said of the backend
 * ({@link BackendSignals}). The observe methods take records in; the rest is what detectors read.
 * Time and alerts are kept beside it, not in it.
 */
public final class FleetState {

    public String targetGroup;
    public Pool pool = new Pool();
    public Registry registry = new Registry();
    public HealthCheck check = new HealthCheck();
    public Latencies latency;
    public TrafficWindow traffic;
    public StepHistory history;
    public BackendSignals backend = new BackendSignals();
    public ZoneMap zones = new ZoneMap();
    /**
     * Per target: requests, 5xx and latencies over the gray-failure window. Null until the first
     * access-log summary (most target groups of a health-check input never send one), and in state
     * saved before it existed.
     */
    public ServedWindow served;

    public FleetState() {
    }

    public static FleetState create(String targetGroup, FleetSettings settings) {
        FleetState s = new FleetState();
        s.targetGroup = targetGroup;
        s.latency = Latencies.of(settings);
        s.history = StepHistory.empty();
        s.traffic = new TrafficWindow();
        return s;
    }

    /** Steps the history keeps: the longest lookback of any detector reading it. */
    static int historySteps(FleetSettings settings) {
        long lookback = Math.max(settings.configRisk().lookbackMillis(), settings.headroom().trendWindowMillis());
        return (int) Math.min(2_000, lookback / settings.stepMillis() + 2);
    }

    /** Seconds of traffic counts kept: the correlation window and a little. */
    static int trafficSeconds(FleetSettings settings) {
        return (int) Math.max(64, settings.correlated().windowMillis() / 1000 + 4);
    }

    // ---- records in ------------------------------------------------------------------------

    /** Applies one health check; returns the check settings as they were before, if this record changed them. */
    CheckSettings observeCheck(HealthCheckResult r, FleetSettings settings) {
        long ts = r.getTs().toEpochMilli();
        registry.touch(ts);
        pool.seen(r.getLb(), r.getSource());
        if (r.getActiveServersLeft() != null) {
            backend.activeServersLeft = r.getActiveServersLeft();
        }
        CheckSettings before = r.getCheck() == null ? null : check.update(CheckSettings.of(r.getCheck()));
        int members = registry.targets.size();
        if (registry.observe(r, ts, check.settings, settings, latency)) {
            TargetRecord t = registry.targets.get(r.getTarget());
            latency.record(r, ts, t != null && registry.failuresCount(t, ts, settings.registry().newTargetAgeMillis()));
        }
        pool.membersChanged(members, registry.targets.size());
        if (r.getAz() == null) {
            registry.locate(r.getTarget(), zones);
        }
        return before;
    }

    void observeBackendEvent(BackendEvent e) {
        long ts = e.getTs().toEpochMilli();
        registry.touch(ts);
        pool.seen(null, e.getSource());
        if (e.getKind() == BackendEventKind.no_server_available) {
            backend.noServerAt = ts;
            backend.noServerMessage = e.getMessage();
        }
    }

    /** Applies a target group's LbConfig; returns the check settings before, if it changed them. */
    CheckSettings observeConfig(LbConfig c) {
        registry.touch(c.getTs().toEpochMilli());
        pool.configure(c);
        zones.configure(c);
        registry.locateAll(zones);
        return c.getHealthCheck() == null ? null : check.update(CheckSettings.of(c.getHealthCheck()));
    }

    /** Applies one traffic summary; requests to targets marked unhealthy are counted at arrival. */
    void observeTraffic(TargetSummary summary, FleetSettings settings) {
        TargetTraffic t = summary.traffic();
        long ts = t.getBucketStart();
        if (served == null) {
            served = new ServedWindow(settings.gray().windowMillis(), settings.stepMillis());
        }
        for (Map.Entry<String, TargetCount> e : t.getByTarget().entrySet()) {
            TargetCount c = e.getValue();
            served.add(e.getKey(), ts, c.getRequests(), c.getSucceeded(), LatencySketch.of(summary, e.getKey()));
        }
        if (TrafficCombiner.HAPROXY_BACKEND.equals(t.getSource())) {
            // an HAProxy backend's servers: compared with each other only; the ALB's traffic rules do not apply
            return;
        }
        registry.touch(ts);
        pool.seen(t.getLb(), "alb");
        long toUnhealthy = 0;
        for (Map.Entry<String, TargetCount> e : t.getByTarget().entrySet()) {
            TargetRecord target = registry.byAddress(e.getKey());
            if (target != null && "unhealthy".equals(target.state)) {
                toUnhealthy += e.getValue().getRequests();
            }
        }
        traffic.add(ts, t.getRequests(), t.getSucceeded(), toUnhealthy, t.getNoTarget503(), trafficSeconds(settings));
    }

    /** A health check of this target group that could not be read, naming its target. */
    void observeUnreadable(TargetSeen seen) {
        registry.touch(seen.getTs());
        int members = registry.targets.size();
        registry.observeUnreadable(seen.getTarget(), seen.getTs());
        pool.membersChanged(members, registry.targets.size());
        registry.locate(seen.getTarget(), zones);
    }

    /** Drops targets silent for {@code silenceMillis}: they left the target group. */
    void expireSilent(long now, long silenceMillis) {
        int members = registry.targets.size();
        registry.expireSilent(now, silenceMillis, latency);
        pool.membersChanged(members, registry.targets.size());
    }

    // ---- views used by detectors --------------------------------------------------------------

    public Map<String, TargetRecord> targets() {
        return registry.targets;
    }

    public CheckSettings settings() {
        return check.settings;
    }

    /**
     * Whether hcwatch has watched this target group for a whole check interval, long enough to
     * have heard from every target. Before that, targets it has not heard from are unknown, not
     * unhealthy: counting healthy targets against the registered count would fail open on every start.
     */
    public boolean settled(long now, FleetSettings settings) {
        return registry.createdAt > 0 && now - registry.createdAt >= settings.interval(check.settings);
    }

    /** Registered targets: LbConfig's count (followed since, {@link Pool#membersChanged}) when given, else the registry's. */
    public int registered() {
        return pool.configuredTargets != null && pool.configuredTargets > 0 ? pool.configuredTargets : registry.targets.size();
    }

    public int healthy() {
        return registry.healthy();
    }

    /**
     * Targets whose health hcwatch does not know: seen only through checks it could not read, or
     * registered (LbConfig's count) but never seen. Not unhealthy: a rule about the healthy count
     * holds only if it would hold were every one of them healthy.
     */
    public int unknown() {
        return registry.unknown() + Math.max(0, registered() - registry.targets.size());
    }

    public Map<String, List<TargetRecord>> byZone() {
        return registry.byZone();
    }

    public boolean isAlb() {
        return pool.isAlb();
    }
}
