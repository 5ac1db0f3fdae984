package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.SparseMaps;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The targets of one target group (or HAProxy backend) as their checks report them: each one's
 * latest state and failure history, in first-seen order, and the replacements that died before
 * ever being healthy. Targets leave when they drain, are unused, or fall silent.
 */
public final class Registry {
    /** Event time of the first record of this target group. */
    public long createdAt;
    /** In first-seen order; the shared empty map while there are none ({@link SparseMaps}). */
    public Map<String, TargetRecord> targets = SparseMaps.none();
    /**
     * Targets that left recently (an Auto Scaling group replaces the ones the load balancer marks
     * unhealthy within seconds): kept for the correlation window, so targets that failed and were
     * replaced still count among the failures of their window.
     */
    public Map<String, TargetRecord> departed = SparseMaps.none();
    public List<ChurnEvent> churn = new ArrayList<>();

    @JsonIgnore
    private Map<String, String> byAddress;

    public Registry() {
    }

    void touch(long ts) {
        if (createdAt == 0) {
            createdAt = ts;
        }
    }

    /**
     * Takes in one check of one target: its state, failure history and whether it was a
     * replacement killed before it was ever healthy. A check older than the target's latest only
     * counts for latency (the caller records that), not for the target's state.
     *
     * @return whether the check is the target's newest (its latency then counts as current)
     */
    boolean observe(HealthCheckResult r, long ts, CheckSettings check, FleetSettings settings, Latencies latencies) {
        TargetRecord t = targets.get(r.getTarget());
        String reportedState = r.getState() == null ? null : r.getState().name();
        if ("draining".equals(reportedState) || "unused".equals(reportedState)) {
            depart(r.getTarget(), ts);
            return false;
        }
        if (t == null) {
            // new, or back after it left (re-registered): a member, with a fresh history
            if (departed.containsKey(r.getTarget())) {
                departed.remove(r.getTarget());
                departed = SparseMaps.compact(departed);
            }
            t = new TargetRecord();
            t.id = r.getTarget();
            t.firstSeen = ts;
            targets = SparseMaps.writable(targets);
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
        if (r.getAz() != null && !r.getAz().equals(t.zone)) {
            // a few zones and sources for every target: one copy of each name, not one per target
            t.zone = r.getAz().intern();
        }
        if (r.getRegisteredAt() != null) {
            t.registeredAt = r.getRegisteredAt().toEpochMilli();
        }
        if (r.getSource() == null || !r.getSource().equals(t.source)) {
            t.source = r.getSource() == null ? null : r.getSource().intern();
        }
        // a late record can be the target's earliest: it was known before, not newly registered
        t.firstSeen = Math.min(t.firstSeen, ts);
        if (ts < t.lastSeen) {
            return true;
        }
        t.lastSeen = ts;
        if (t.firstLatencyMs == null) {
            t.firstLatencyMs = r.getLatencyMs();
        }
        if (!hasVerdict(r)) {
            t.state = "initial";
            t.sawInitial = true;
            return true;
        }
        String outcome = r.getOutcome().name();
        t.lastOutcome = outcome;
        t.lastReason = r.getReason();
        t.lastStatusCode = r.getStatusCode();
        t.lastLatencyMs = r.getLatencyMs();
        if ("pass".equals(outcome)) {
            if (t.consecutivePasses == 0) {
                t.firstPassAt = ts;
            }
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
                latencies.timedOut(t.id, ts);
            }
        }
        String newState = reportedState != null ? reportedState : derivedState(t, check);
        if ("initial".equals(newState)) {
            t.sawInitial = true;
        }
        if ("healthy".equals(newState) && t.firstHealthyAt == 0) {
            t.firstHealthyAt = ts;
        }
        if ("unhealthy".equals(newState) && !"unhealthy".equals(t.state)) {
            t.unhealthySince = ts;
            if (!t.everHealthy() && isNew(t, ts, settings.registry().newTargetAgeMillis())) {
                recordChurn(t, ts, settings.churn().windowMillis());
            }
        }
        t.state = newState;
        return true;
    }

    /**
     * Whether a check says anything about the target's health. A target the load balancer still
     * reports in state {@code initial} (registration in progress, or still short of the checks it
     * needs: ELB's {@code Elb.RegistrationInProgress} and {@code Elb.InitialHealthChecking}) has no
     * verdict yet unless the check names a failure: counting {@code other} as a failure would make a
     * registering target look broken, counting its passes would make it look serving before the
     * load balancer sends it traffic. A named failure in {@code initial} (a timeout, a wrong status,
     * a refused connection) still counts: a replacement failing its first checks is what churn
     * looks for.
     */
    static boolean hasVerdict(HealthCheckResult r) {
        if (r.getState() != TargetState.initial) {
            return true;
        }
        return switch (r.getOutcome()) {
            case timeout, http_status, connect_error -> true;
            case pass, other -> false;
        };
    }

    /** The target's state after its latest check when the producer did not say, from the thresholds. */
    private static String derivedState(TargetRecord t, CheckSettings check) {
        if (t.consecutiveFailures >= check.failuresToFail()) {
            return "unhealthy";
        }
        if (t.consecutivePasses >= check.passesToRecover() || ("healthy".equals(t.state) && t.consecutivePasses > 0)) {
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

    /**
     * Drops targets silent for {@code silenceMillis}. HAProxy logs a server only when its state
     * changes, so its servers never age out.
     */
    List<String> expireSilent(long now, long silenceMillis, Latencies latencies) {
        List<String> removed = new ArrayList<>();
        if (targets.isEmpty()) {
            return removed;
        }
        for (Iterator<TargetRecord> it = targets.values().iterator(); it.hasNext(); ) {
            TargetRecord t = it.next();
            if (!"haproxy".equals(t.source) && t.lastSeen < now - silenceMillis) {
                it.remove();
                removed.add(t.id);
                latencies.forget(t.id);
                t.departedAt = now;
                departed = SparseMaps.writable(departed);
                departed.put(t.id, t);
            }
        }
        if (!removed.isEmpty()) {
            byAddress = null;
            targets = SparseMaps.compact(targets);
        }
        return removed;
    }

    /** The target leaves the target group at {@code ts}; it is kept among the departed for a while. */
    private void depart(String id, long ts) {
        TargetRecord t = targets.get(id);
        if (t != null) {
            targets.remove(id);
            targets = SparseMaps.compact(targets);
            byAddress = null;
            t.departedAt = ts;
            departed = SparseMaps.writable(departed);
            departed.put(id, t);
        }
    }

    /**
     * Forgets targets that left more than {@code keepMillis} before {@code now}, or more than
     * {@code keepFailingMillis} when they left while failing (what correlated_failure's severity
     * looks back on); a target that left healthy, as in a rolling deploy, goes as before.
     */
    void forgetDeparted(long now, long keepMillis, long keepFailingMillis) {
        if (!departed.isEmpty() && departed.values().removeIf(t -> t.departedAt <= now - keepMillis
                && (!t.lastCheckFailed() || t.departedAt <= now - keepFailingMillis))) {
            departed = SparseMaps.compact(departed);
        }
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

    /**
     * A check of {@code target} at {@code ts} that could not be read: the target exists (it stays
     * in the registry) but its state is unknown until a check that can be read says otherwise.
     */
    void observeUnreadable(String target, long ts) {
        TargetRecord t = targets.get(target);
        if (t == null) {
            t = new TargetRecord();
            t.id = target;
            t.firstSeen = ts;
            targets = SparseMaps.writable(targets);
            targets.put(target, t);
            byAddress = null;
        }
        if (ts >= t.lastSeen) {
            t.lastSeen = ts;
            t.state = TargetRecord.UNKNOWN;
        }
    }

    /** Targets whose latest check could not be read. */
    public int unknown() {
        int n = 0;
        for (TargetRecord t : targets.values()) {
            if (t.isUnknown()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Gives a target its zone from the target group's zone map, when its check did not carry one
     * (raw ALB log lines name only the address); a target the map does not name keeps its zone.
     */
    void locate(String id, ZoneMap zones) {
        TargetRecord t = targets.get(id);
        if (t != null && !zones.isEmpty()) {
            String zone = zones.zoneOf(t.id, t.ip, t.port);
            if (zone != null) {
                t.zone = zone;
            }
        }
    }

    /** A new zone map arrived: every target it names is placed by it. */
    void locateAll(ZoneMap zones) {
        if (!zones.isEmpty()) {
            targets.keySet().forEach(id -> locate(id, zones));
        }
    }

    /** Targets by zone (unknown zones under "unknown"), in first-seen order. */
    public Map<String, List<TargetRecord>> byZone() {
        Map<String, List<TargetRecord>> zones = new LinkedHashMap<>();
        for (TargetRecord t : targets.values()) {
            zones.computeIfAbsent(t.zoneOrUnknown(), z -> new ArrayList<>()).add(t);
        }
        return zones;
    }

    /**
     * Whether a failure of {@code t} at {@code now} is one of the target group's: the target is
     * established, or the load balancer has already marked it unhealthy. A replacement warming up
     * (or an HAProxy server that has not come up since HAProxy started) fails as it starts, which
     * says nothing of the fleet.
     */
    public boolean failuresCount(TargetRecord t, long now, long newTargetAge) {
        return !isNew(t, now, newTargetAge) || "unhealthy".equals(t.state);
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

    /** The target an access log names by ip:port (or by its id when that is an address). */
    TargetRecord byAddress(String address) {
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
