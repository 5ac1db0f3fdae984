package io.hcwatch.detect.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The targets of a target group that are failing now ({@link #of}: a failed check inside the
 * window and no pass since), or that failed within the window, replaced ones counted
 * ({@link #includingReplaced}: what correlated_failure counts). Replacements still warming up are left out: they belong to replacement_churn, and
 * counting them would page on every rolling deploy. A replacement the load balancer has marked
 * unhealthy is no longer warming up, though: it failed, and leaving it out would let an alert
 * resolve while the Auto Scaling group swaps a dead fleet for new instances that die the same way.
 */
public record FailingTargets(List<TargetRecord> targets, long earliestOnset, long latestOnset) {

    public static FailingTargets of(FleetState s, long now, long windowMillis, long newTargetAge) {
        return of(s, now, windowMillis, newTargetAge, false);
    }

    /**
     * The targets that failed within the window and have not recovered since
     * ({@link TargetRecord#failedUnrecovered}: a pass between timeouts does not hide a target),
     * and those that failed within the window and left the target group before recovering
     * (drained, terminated or silent since: an Auto Scaling group replacing the targets the load
     * balancer marks unhealthy empties the registry of the very failures that tell of a correlated
     * cause). A target that drained without a failure, as in a rolling deploy, is not among them.
     */
    public static FailingTargets includingReplaced(FleetState s, long now, long windowMillis, long newTargetAge) {
        return of(s, now, windowMillis, newTargetAge, true);
    }

    private static FailingTargets of(FleetState s, long now, long windowMillis, long newTargetAge, boolean replaced) {
        List<TargetRecord> failing = new ArrayList<>();
        int recovery = s.settings().passesToRecover();
        for (TargetRecord t : s.targets().values()) {
            if (replaced ? unrecovered(s, t, now, windowMillis, newTargetAge, recovery) : counts(s, t, now, windowMillis, newTargetAge)) {
                failing.add(t);
            }
        }
        if (replaced) {
            for (TargetRecord t : s.registry.departed.values()) {
                if (t.departedAt > now - windowMillis && t.departedAt <= now
                        && unrecovered(s, t, t.departedAt, windowMillis, newTargetAge, recovery) && t.lastFailureAt > now - windowMillis) {
                    failing.add(t);
                }
            }
        }
        long earliest = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;
        for (TargetRecord t : failing) {
            earliest = Math.min(earliest, t.firstFailureAt);
            latest = Math.max(latest, t.firstFailureAt);
        }
        return new FailingTargets(failing, earliest, latest);
    }

    /** How many of them have already left the target group. */
    public int replaced() {
        return (int) targets.stream().filter(t -> t.departedAt > 0).count();
    }

    /** The failing targets of one zone, with their own onsets. */
    public FailingTargets inZone(String zone) {
        List<TargetRecord> in = targets.stream().filter(t -> zone.equals(t.zone)).toList();
        long earliest = in.stream().mapToLong(t -> t.firstFailureAt).min().orElse(Long.MAX_VALUE);
        long latest = in.stream().mapToLong(t -> t.firstFailureAt).max().orElse(Long.MIN_VALUE);
        return new FailingTargets(in, earliest, latest);
    }

    /** Whether {@code t} is failing for correlation: failing now, and its failures count ({@link Registry#failuresCount}). */
    static boolean counts(FleetState s, TargetRecord t, long now, long windowMillis, long newTargetAge) {
        return t.failingWithin(now, windowMillis) && s.registry.failuresCount(t, now, newTargetAge);
    }

    /**
     * Whether {@code t} failed within the window without recovering since, and its failures count
     * ({@link Registry#failuresCount}). A replacement's failures while it warmed up never count,
     * not even once it has turned healthy and is no longer new: a rolling deploy is not a failure.
     */
    private static boolean unrecovered(FleetState s, TargetRecord t, long now, long windowMillis, long newTargetAge, int recovery) {
        return t.failedUnrecovered(now, windowMillis, recovery) && s.registry.failuresCount(t, now, newTargetAge)
                && !failedWarmingUp(s, t, newTargetAge);
    }

    /** Its latest failure came before it was first healthy, while it was new (joined within the new-target age). */
    private static boolean failedWarmingUp(FleetState s, TargetRecord t, long newTargetAge) {
        long joined = s.registry.joinedAt(t);
        return t.firstHealthyAt > t.lastFailureAt && joined >= 0 && joined > t.lastFailureAt - newTargetAge;
    }

    public int size() {
        return targets.size();
    }

    /** Failing targets per zone ("unknown" for targets without one). */
    public Map<String, Integer> byZone() {
        Map<String, Integer> zones = new LinkedHashMap<>();
        targets.forEach(t -> zones.merge(t.zoneOrUnknown(), 1, Integer::sum));
        return zones;
    }

    /** Reason (or outcome when no reason) -> count, most frequent first. */
    public Map<String, Integer> reasons() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        targets.forEach(t -> counts.merge(reasonOf(t), 1, Integer::sum));
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        Map<String, Integer> out = new LinkedHashMap<>();
        sorted.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    public String dominantReason() {
        return reasons().keySet().stream().findFirst().orElse("unknown");
    }

    /** Time between the first and the last target starting to fail. */
    public long onsetSpread() {
        return targets.isEmpty() ? 0 : latestOnset - earliestOnset;
    }

    static String reasonOf(TargetRecord t) {
        if (t.lastReason != null) {
            return t.lastReason;
        }
        return t.lastStatusCode != null ? t.lastOutcome + " " + t.lastStatusCode : t.lastOutcome;
    }

    static String describe(Map<String, Integer> counts) {
        StringBuilder sb = new StringBuilder();
        counts.forEach((k, v) -> sb.append(sb.length() > 0 ? "," : "").append(k).append('=').append(v));
        return sb.toString();
    }
}
