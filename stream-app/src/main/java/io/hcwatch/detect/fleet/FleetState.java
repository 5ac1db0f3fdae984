package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.hcwatch.alert.AlertBook;
import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.config.Settings;
import io.hcwatch.time.KeyClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything hcwatch knows about one target group (or HAProxy backend): its registry of
 * targets, check settings and their history, latency and traffic windows, and its alerts.
 * Plain data plus the rules that update it; the detectors read it.
 */
public final class FleetState {

    public String targetGroup;
    public String lb;
    /** alb or haproxy, once known. */
    public String platform;
    public long createdAt;
    public KeyClock time = new KeyClock();
    public Map<String, TargetRecord> targets = new LinkedHashMap<>();

    public CheckSettings check = new CheckSettings();
    public CheckSettings previousCheck;
    public long checkChangedAt;

    public Boolean crossZone;
    public Integer configuredTargets;
    public Integer routingCount;
    public Double routingPercent;
    public Integer dnsCount;
    public Double dnsPercent;
    public boolean configKnown;

    public SlidingHistogram latency;
    public SlidingHistogram failingLatency;
    public StepHistory history;
    public TrafficWindow traffic;
    public Map<String, Long> timeoutsAt = new HashMap<>();
    public long noServerAt;
    public String noServerMessage;
    /** HAProxy's own count of active servers in the backend, from its latest server state message. */
    public Integer activeServersLeft;

    public SlidingHistogram passingLatency;
    public java.util.List<ChurnEvent> churn = new ArrayList<>();
    public ConfigRisk configRisk;
    /** Since when each zone has looked zonal (zonal_failure waits a check interval before firing). */
    public Map<String, Long> zonalSince = new HashMap<>();

    public AlertBook alerts = new AlertBook();

    @JsonIgnore
    private Map<String, String> byAddress;

    public FleetState() {
    }

    public static FleetState create(String targetGroup, Settings settings) {
        FleetState s = new FleetState();
        s.targetGroup = targetGroup;
        long window = settings.millis("headroom.window");
        s.latency = new SlidingHistogram(window, 6);
        s.failingLatency = new SlidingHistogram(settings.millis("correlated.window"), 6);
        s.passingLatency = new SlidingHistogram(window, 6);
        long step = settings.millis("eval.step");
        long lookback = Math.max(settings.millis("config-risk.lookback"), settings.millis("headroom.trend-window"));
        s.history = new StepHistory((int) Math.min(2_000, lookback / step + 2));
        s.traffic = new TrafficWindow((int) Math.max(64, settings.millis("correlated.window") / 1000 + 4));
        return s;
    }

    // ---- events ---------------------------------------------------------------------------

    /** Applies one health check; returns the check settings as they were before, if this record changed them. */
    public CheckSettings observeCheck(HealthCheckResult r, Settings settings) {
        long ts = r.getTs().toEpochMilli();
        touch(ts);
        if (lb == null && r.getLb() != null) {
            lb = r.getLb();
        }
        if (platform == null && r.getSource() != null) {
            platform = r.getSource();
        }
        if (r.getActiveServersLeft() != null) {
            activeServersLeft = r.getActiveServersLeft();
        }
        CheckSettings before = null;
        if (r.getCheck() != null) {
            before = applyCheckSettings(CheckSettings.of(r.getCheck()), ts);
        }
        TargetRecord t = targets.get(r.getTarget());
        String reportedState = r.getState() == null ? null : r.getState().name();
        if ("draining".equals(reportedState) || "unused".equals(reportedState)) {
            if (targets.remove(r.getTarget()) != null) {
                byAddress = null;
            }
            return before;
        }
        if (t == null) {
            t = new TargetRecord();
            t.id = r.getTarget();
            t.firstSeen = ts;
            targets.put(t.id, t);
            byAddress = null;
        }
        if (r.getTargetIp() != null && !r.getTargetIp().equals(t.ip)) {
            t.ip = r.getTargetIp();
            byAddress = null;
        }
        if (r.getPort() != null && !r.getPort().equals(t.port)) {
            t.port = r.getPort();
            byAddress = null;
        }
        if (r.getAz() != null) {
            t.zone = r.getAz();
        }
        if (r.getRegisteredAt() != null) {
            t.registeredAt = r.getRegisteredAt().toEpochMilli();
        }
        t.source = r.getSource();
        // a late record can be the target's earliest: it was known before, not newly registered
        t.firstSeen = Math.min(t.firstSeen, ts);
        if (ts < t.lastSeen) {
            // an older check arriving late: it counts for latency, not for the target's current state
            recordLatency(r, ts);
            return before;
        }
        t.lastSeen = ts;
        String outcome = r.getOutcome().name();
        t.lastOutcome = outcome;
        t.lastReason = r.getReason();
        t.lastStatusCode = r.getStatusCode();
        t.lastLatencyMs = r.getLatencyMs();
        if (t.firstLatencyMs == null) {
            t.firstLatencyMs = r.getLatencyMs();
        }
        if ("pass".equals(outcome)) {
            t.consecutivePasses++;
            t.consecutiveFailures = 0;
            t.lastPassAt = ts;
        } else {
            if (t.consecutiveFailures == 0) {
                t.firstFailureAt = ts;
            }
            t.consecutiveFailures++;
            t.consecutivePasses = 0;
            t.lastFailureAt = ts;
            if ("timeout".equals(outcome)) {
                timeoutsAt.put(t.id, ts);
            }
        }
        String newState = reportedState != null ? reportedState : derivedState(t);
        if ("initial".equals(newState)) {
            t.sawInitial = true;
        }
        if ("healthy".equals(newState) && t.firstHealthyAt == 0) {
            t.firstHealthyAt = ts;
        }
        if ("unhealthy".equals(newState) && !"unhealthy".equals(t.state)) {
            t.unhealthySince = ts;
            if (!t.everHealthy() && isNew(t, ts, settings.millis("registry.new-target-age"))) {
                recordChurn(t, ts, settings.millis("churn.window"));
            }
        }
        t.state = newState;
        recordLatency(r, ts);
        return before;
    }

    private void recordLatency(HealthCheckResult r, long ts) {
        if (r.getLatencyMs() != null) {
            latency.record(ts, r.getLatencyMs());
            if (r.getOutcome() != io.hcwatch.avro.v1.CheckOutcome.pass) {
                failingLatency.record(ts, r.getLatencyMs());
            } else {
                passingLatency.record(ts, r.getLatencyMs());
            }
        }
    }

    /** The target's state after its latest check when the producer did not say, from the thresholds. */
    private String derivedState(TargetRecord t) {
        int healthyThreshold = check.healthyThreshold == null ? 3 : check.healthyThreshold;
        int unhealthyThreshold = check.unhealthyThreshold == null ? 2 : check.unhealthyThreshold;
        if (t.consecutiveFailures >= unhealthyThreshold) {
            return "unhealthy";
        }
        if (t.consecutivePasses >= healthyThreshold || ("healthy".equals(t.state) && t.consecutivePasses > 0)) {
            return "healthy";
        }
        return t.state;
    }

    private void recordChurn(TargetRecord t, long ts, long window) {
        churn.removeIf(c -> c.unhealthyAt <= ts - window || c.target.equals(t.id));
        ChurnEvent c = new ChurnEvent();
        c.target = t.id;
        c.zone = t.zone;
        c.joinedAt = joinedAt(t);
        c.unhealthyAt = ts;
        c.firstLatencyMs = t.firstLatencyMs;
        c.reason = t.lastReason;
        churn.add(c);
    }

    public void observeBackendEvent(BackendEvent e) {
        long ts = e.getTs().toEpochMilli();
        touch(ts);
        if (platform == null) {
            platform = e.getSource();
        }
        if (e.getKind() == BackendEventKind.no_server_available) {
            noServerAt = ts;
            noServerMessage = e.getMessage();
        }
    }

    /** Applies a target group's LbConfig; returns the check settings before, if it changed them. */
    public CheckSettings observeConfig(LbConfig c) {
        long ts = c.getTs().toEpochMilli();
        touch(ts);
        configKnown = true;
        if (platform == null) {
            platform = "alb";
        }
        if (c.getLb() != null) {
            lb = c.getLb();
        }
        crossZone = c.getCrossZone();
        configuredTargets = c.getRegisteredTargets();
        Thresholds routing = c.getUnhealthyStateRouting();
        routingCount = routing == null ? null : routing.getMinHealthyCount();
        routingPercent = routing == null ? null : routing.getMinHealthyPercent();
        Thresholds dns = c.getDnsFailover();
        dnsCount = dns == null ? null : dns.getMinHealthyCount();
        dnsPercent = dns == null ? null : dns.getMinHealthyPercent();
        if (c.getHealthCheck() != null) {
            return applyCheckSettings(CheckSettings.of(c.getHealthCheck()), ts);
        }
        return null;
    }

    /** Applies one traffic summary; requests to targets marked unhealthy are counted at arrival. */
    public void observeTraffic(TargetTraffic t) {
        long ts = t.getBucketStart();
        touch(ts);
        if (platform == null) {
            platform = "alb";
        }
        if (lb == null && t.getLb() != null) {
            lb = t.getLb();
        }
        long toUnhealthy = 0;
        for (Map.Entry<String, TargetCount> e : t.getByTarget().entrySet()) {
            TargetRecord target = byAddress(e.getKey());
            if (target != null && "unhealthy".equals(target.state)) {
                toUnhealthy += e.getValue().getRequests();
            }
        }
        traffic.add(ts, t.getRequests(), t.getSucceeded(), toUnhealthy, t.getNoTarget503());
    }

    private CheckSettings applyCheckSettings(CheckSettings incoming, long ts) {
        if (incoming.isEmpty()) {
            return null;
        }
        CheckSettings merged = check.overlay(incoming);
        if (merged.equals(check)) {
            return null;
        }
        CheckSettings before = check;
        check = merged;
        if (!before.isEmpty() && !before.changesTo(merged).isEmpty()) {
            previousCheck = before;
            checkChangedAt = ts;
            return before;
        }
        return null;
    }

    private void touch(long ts) {
        if (createdAt == 0) {
            createdAt = ts;
        }
        time.clock = Math.max(time.clock, ts);
    }

    // ---- registry maintenance -------------------------------------------------------------

    /**
     * Drops targets silent for too long. HAProxy logs a server only when its state changes, so
     * its servers never age out; others age out after {@code registry.silent-intervals}.
     */
    public List<String> expireSilentTargets(long now, Settings settings) {
        List<String> removed = new ArrayList<>();
        long interval = check.intervalMs != null ? check.intervalMs : settings.millis("registry.default-interval");
        long silence = interval * settings.integer("registry.silent-intervals");
        for (Iterator<TargetRecord> it = targets.values().iterator(); it.hasNext(); ) {
            TargetRecord t = it.next();
            if (!"haproxy".equals(t.source) && t.lastSeen < now - silence) {
                it.remove();
                removed.add(t.id);
                timeoutsAt.remove(t.id);
            }
        }
        if (!removed.isEmpty()) {
            byAddress = null;
        }
        return removed;
    }

    // ---- views used by detectors --------------------------------------------------------------

    /**
     * Whether hcwatch has watched this target group for a whole check interval, long enough to
     * have heard from every target. Before that, targets it has not heard from are unknown, not
     * unhealthy: counting healthy targets against the registered count would fail open on every start.
     */
    public boolean settled(long now, Settings settings) {
        long interval = check.intervalMs != null ? check.intervalMs : settings.millis("registry.default-interval");
        return createdAt > 0 && now - createdAt >= interval;
    }

    /** Registered targets: LbConfig's count when given, else the registry's. */
    public int registered() {
        return configuredTargets != null && configuredTargets > 0 ? configuredTargets : targets.size();
    }

    public int healthy() {
        int n = 0;
        for (TargetRecord t : targets.values()) {
            if (t.isHealthy()) {
                n++;
            }
        }
        return n;
    }

    /** ALB applies its thresholds per zone when cross-zone is off; on (AWS's default) when unknown. */
    public boolean crossZoneOn() {
        return crossZone == null || crossZone;
    }

    public FleetThresholds routingThresholds() {
        return routingCount == null && routingPercent == null
                ? FleetThresholds.AWS_DEFAULT : new FleetThresholds(routingCount, routingPercent);
    }

    public FleetThresholds dnsThresholds() {
        return dnsCount == null && dnsPercent == null
                ? FleetThresholds.AWS_DEFAULT : new FleetThresholds(dnsCount, dnsPercent);
    }

    public boolean isAlb() {
        return "alb".equals(platform);
    }

    /** Targets by zone (unknown zones under "unknown"), in first-seen order. */
    public Map<String, List<TargetRecord>> byZone() {
        Map<String, List<TargetRecord>> zones = new LinkedHashMap<>();
        for (TargetRecord t : targets.values()) {
            zones.computeIfAbsent(t.zoneOrUnknown(), z -> new ArrayList<>()).add(t);
        }
        return zones;
    }

    /** A target counts as new (a replacement warming up) until it has been healthy once, for a while after it joined. */
    public boolean isNew(TargetRecord t, long now, long newTargetAge) {
        if (t.everHealthy()) {
            return false;
        }
        long joined = joinedAt(t);
        return joined >= 0 && joined > now - newTargetAge;
    }

    /**
     * When the target joined the target group: its registered_at, else its first appearance if
     * that is evidence of a registration (it was first seen in state initial, or we had been
     * watching this target group for a while already); -1 when unknown (present since we started).
     */
    public long joinedAt(TargetRecord t) {
        if (t.registeredAt != null) {
            return t.registeredAt;
        }
        if (t.sawInitial || t.firstSeen > createdAt + 60_000) {
            return t.firstSeen;
        }
        return -1;
    }

    private TargetRecord byAddress(String address) {
        if (byAddress == null) {
            byAddress = new HashMap<>();
            for (TargetRecord t : targets.values()) {
                if (t.address() != null) {
                    byAddress.put(t.address(), t.id);
                }
                if (t.id.indexOf(':') > 0) {
                    byAddress.put(t.id, t.id);
                }
            }
        }
        String id = byAddress.get(address);
        return id == null ? null : targets.get(id);
    }
}
