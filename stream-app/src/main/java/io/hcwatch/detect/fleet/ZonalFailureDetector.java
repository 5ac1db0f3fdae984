package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * zonal_failure: most of one zone's targets fail while the other zones are nearly clean, and
 * never while the fleet's failures (replaced targets counted) span zones as a correlated failure:
 * a fleet-wide failure reaches some zone first, and an Auto Scaling group leaves the other zones
 * with fresh replacements that look clean. Says
 * whether cross-zone aggregation hides the dead zone from DNS failover and fail-open, because
 * with cross-zone on ALB judges the pool, and a healthy pool keeps a dead zone in DNS.
 */
public final class ZonalFailureDetector implements Detector<FleetState> {

    private final FleetSettings settings;
    private final FleetDiagnostician diagnostician;

    public ZonalFailureDetector(FleetSettings settings, FleetDiagnostician diagnostician) {
        this.settings = settings;
        this.diagnostician = diagnostician;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        Map<String, List<TargetRecord>> zones = s.byZone();
        zones.remove("unknown");
        if (zones.size() < 2) {
            return List.of();
        }
        long window = settings.correlated().windowMillis();
        long newAge = settings.registry().newTargetAgeMillis();
        // a fleet-wide failure that reaches one zone first, or whose other zones' failing targets
        // were already replaced, is correlated_failure's, not a zone failing alone
        FailingTargets spread = FailingTargets.includingReplaced(s, now, window, newAge);
        if (CorrelatedFailureDetector.holds(s, spread, now, settings.correlated(), false)) {
            return List.of();
        }
        Set<String> replaced = zonesReplacedIn(spread);
        int minTargets = settings.zonal().minZoneTargets();
        // targets fail and recover at different phases of the check interval: a zone that is
        // merely first to fail or last to recover looks zonal for less than one interval
        long holdFor = settings.interval(s.settings());
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
            List<TargetRecord> members = zone.getValue();
            if (members.size() < minTargets) {
                continue;
            }
            int failing = countFailing(s, members, now, window, newAge);
            double share = (double) failing / members.size();
            if (share < settings.zonal().zoneFraction()) {
                continue;
            }
            long zoneOnset = failureOnset(s, members, now, window, newAge);
            long heldSince = zonalSince(s, members, now, window, newAge);
            // another zone whose failing targets were replaced within the window is not clean: its
            // members may be fresh replacements that have not failed yet, or none at all
            boolean othersClean = replaced.stream().allMatch(z -> z.equals(zone.getKey()));
            StringBuilder others = new StringBuilder();
            for (Map.Entry<String, List<TargetRecord>> other : zones.entrySet()) {
                if (other.getKey().equals(zone.getKey())) {
                    continue;
                }
                int otherFailing = countFailing(s, other.getValue(), now, window, newAge);
                double otherShare = (double) otherFailing / other.getValue().size();
                others.append(others.length() > 0 ? "," : "").append(other.getKey()).append('=').append(Fmt.pct(otherShare));
                if (!clean(other.getValue(), otherShare, zoneOnset)) {
                    othersClean = false;
                } else {
                    heldSince = Math.max(heldSince, cleanSince(s, other.getValue(), otherFailing, now, window, newAge));
                }
            }
            // the hold is counted from state, not from when the condition was first judged: a
            // zone that fails beside zones already known clean fires one interval after its onset,
            // however long the other zones take to be heard of again
            if (!othersClean || now - heldSince < holdFor) {
                continue;
            }
            out.add(finding(s, zone.getKey(), members, failing, others.toString(), now, window, newAge));
        }
        return out;
    }

    private Finding finding(FleetState s, String zone, List<TargetRecord> members, int failing, String others,
                            long now, long window, long newAge) {
        boolean crossZone = s.pool.crossZoneOn();
        int healthyInZone = (int) members.stream().filter(TargetRecord::isHealthy).count();
        int registered = s.registered();
        int healthy = s.healthy();
        // masked: cross-zone aggregation keeps the dead zone in DNS and out of fail-open
        boolean masked = false;
        String masking;
        if (!s.isAlb()) {
            masking = "not an ALB target group: no DNS failover or fail-open";
        } else if (crossZone) {
            boolean poolDns = s.pool.dnsThresholds().breached(healthy, registered);
            boolean poolRouting = s.pool.routingThresholds().breached(healthy, registered);
            masked = !poolDns && !poolRouting;
            masking = masked
                    ? "cross-zone on: the pool (" + healthy + "/" + registered + " healthy) meets its thresholds, so zone "
                    + zone + " stays in DNS and no fail-open happens; its dead capacity is masked"
                    : "cross-zone on: the pool itself is below its thresholds";
        } else {
            boolean dns = s.pool.dnsThresholds().breached(healthyInZone, members.size());
            boolean routing = s.pool.routingThresholds().breached(healthyInZone, members.size());
            masking = "cross-zone off: zone judged alone (" + healthyInZone + "/" + members.size() + " healthy): "
                    + (dns ? "removed from DNS" : "kept in DNS") + ", " + (routing ? "failing open within the zone" : "no fail-open");
        }
        FailingTargets inZone = FailingTargets.of(s, now, window, newAge).inZone(zone);
        Diagnosis diagnosis = diagnostician.diagnose(s, inZone, now, true);
        String consequence;
        if (!s.isAlb()) {
            consequence = "no DNS or fail-open rules apply";
        } else if (masked) {
            consequence = "cross-zone aggregation masks it from DNS failover and fail-open";
        } else if (crossZone) {
            consequence = "the whole pool is below its thresholds";
        } else {
            consequence = "the zone is judged on its own (cross-zone off)";
        }
        String summary = failing + "/" + members.size() + " targets of " + s.targetGroup + " in " + zone
                + " are failing while other zones are healthy (" + others + "); " + consequence;
        Finding.Details details = Finding.newDetails()
                .put("zone", zone)
                .put("failing", failing)
                .put("zone_targets", members.size())
                .put("zone_healthy", healthyInZone)
                .put("other_zones_failing", others)
                .put("cross_zone", s.isAlb() ? crossZone : null)
                .put("masked", s.isAlb() ? masked : null)
                .put("dns_and_fail_open", masking)
                .put("reason", inZone.dominantReason())
                .put("diagnosis", diagnosis.kind().id())
                .put("diagnosis_reason", diagnosis.reason());
        diagnosis.evidence().forEach(details::put);
        return new Finding(AlertType.ZONAL_FAILURE, AlertType.ZONAL_FAILURE.id() + "/" + s.targetGroup + "/" + zone,
                Severity.ERROR, Scope.targetGroup(s.pool.lb, s.targetGroup).withZone(zone), summary, details.build(),
                Math.min(inZone.earliestOnset(), now), now);
    }

    /**
     * Whether another zone is healthy enough to set the failing one apart: few failures, something
     * healthy in it, and every target checked since the failing zone's failures began. Without that
     * last condition the first failures of a fleet-wide fault, which land in some zone first, would
     * be judged against the other zones' checks from before the fault.
     */
    private boolean clean(List<TargetRecord> zone, double share, long since) {
        boolean fewFailing = share < settings.zonal().otherZonesMaxFraction();
        boolean anyHealthy = zone.stream().anyMatch(TargetRecord::isHealthy);
        // HAProxy logs a server only when its state changes: its last state stands
        boolean checkedSince = zone.stream().allMatch(t -> t.lastSeen >= since || "haproxy".equals(t.source));
        return fewFailing && anyHealthy && checkedSince;
    }

    /**
     * Since when the zone has had {@code zonal.zone-fraction} of its targets failing without a
     * break, as far as each target's latest run of failures tells (from its first failure to its
     * first pass after it): targets of a graying zone fail and pass in turn, and one that passes
     * while another has begun to fail does not break the zone's failure. Runs before a target's
     * latest are not known, so the zone may have failed for longer, never for less.
     */
    private long zonalSince(FleetState s, List<TargetRecord> members, long now, long window, long newAge) {
        int needed = 1;
        while (needed < members.size() && (double) needed / members.size() < settings.zonal().zoneFraction()) {
            needed++;
        }
        List<long[]> runs = new ArrayList<>();
        for (TargetRecord t : members) {
            if (FailingTargets.counts(s, t, now, window, newAge)) {
                runs.add(new long[] {t.firstFailureAt, Long.MAX_VALUE});
            } else if (t.lastFailureAt > 0) {
                long stopped = notFailingSince(s, t, now, window, newAge);
                if (stopped > t.firstFailureAt) {
                    runs.add(new long[] {t.firstFailureAt, stopped});
                }
            }
        }
        // the latest boundary before which fewer than needed were failing
        long since = Long.MIN_VALUE;
        for (long[] run : runs) {
            for (long boundary : run) {
                if (boundary <= now && boundary > since && failingAt(runs, boundary - 1) < needed) {
                    since = boundary;
                }
            }
        }
        return since == Long.MIN_VALUE ? now : since;
    }

    private static int failingAt(List<long[]> runs, long at) {
        int n = 0;
        for (long[] run : runs) {
            if (run[0] <= at && at < run[1]) {
                n++;
            }
        }
        return n;
    }

    /**
     * Since when another zone, clean now, has been clean: few of its targets failing and one
     * healthy. A target not failing now is taken to have failed until it stopped (its first pass
     * since its latest failure, or its latest failure leaving the window), so at a recovery the
     * zones that recover first are clean only from their recovery, and the last zone to recover
     * is not zonal until it has stayed failing for an interval beyond them.
     */
    private long cleanSince(FleetState s, List<TargetRecord> zone, int failing, long now, long window, long newAge) {
        int mayFail = 0;
        while (mayFail < zone.size() && (double) (mayFail + 1) / zone.size() < settings.zonal().otherZonesMaxFraction()) {
            mayFail++;
        }
        List<Long> stopped = new ArrayList<>();
        long healthySince = Long.MAX_VALUE;
        for (TargetRecord t : zone) {
            if (FailingTargets.counts(s, t, now, window, newAge)) {
                continue;
            }
            long since = notFailingSince(s, t, now, window, newAge);
            stopped.add(since);
            if (t.isHealthy()) {
                healthySince = Math.min(healthySince, since);
            }
        }
        // the latest stops beyond those the zone may have failing and still be clean
        stopped.sort(Comparator.reverseOrder());
        int slack = mayFail - failing;
        long fewFailingSince = slack < stopped.size() ? stopped.get(Math.max(0, slack)) : Long.MIN_VALUE;
        return Math.max(fewFailingSince, healthySince == Long.MAX_VALUE ? Long.MIN_VALUE : healthySince);
    }

    /** Since when a target not failing now has not been failing (Long.MIN_VALUE: never failed while watched). */
    private static long notFailingSince(FleetState s, TargetRecord t, long now, long window, long newAge) {
        if (t.lastFailureAt == 0) {
            return Long.MIN_VALUE;
        }
        if (!t.lastCheckFailed()) {
            // state saved before the first pass was kept: its latest failure is the best known
            return t.firstPassAt > t.lastFailureAt ? t.firstPassAt : t.lastFailureAt;
        }
        if (s.registry.isNew(t, now, newAge)) {
            // a replacement warming up has never counted (it is new until healthy once or old enough)
            return Long.MIN_VALUE;
        }
        return t.lastFailureAt + window;
    }

    /** Zones with failing targets already replaced (left the target group within the window). */
    private static Set<String> zonesReplacedIn(FailingTargets spread) {
        Set<String> out = new HashSet<>();
        for (TargetRecord t : spread.targets()) {
            if (t.departedAt > 0 && t.zone != null) {
                out.add(t.zone);
            }
        }
        return out;
    }

    private static long failureOnset(FleetState s, List<TargetRecord> members, long now, long window, long newAge) {
        long onset = Long.MAX_VALUE;
        for (TargetRecord t : members) {
            if (FailingTargets.counts(s, t, now, window, newAge)) {
                onset = Math.min(onset, t.firstFailureAt);
            }
        }
        return onset == Long.MAX_VALUE ? now : onset;
    }

    private static int countFailing(FleetState s, List<TargetRecord> members, long now, long window, long newAge) {
        int n = 0;
        for (TargetRecord t : members) {
            if (FailingTargets.counts(s, t, now, window, newAge)) {
                n++;
            }
        }
        return n;
    }
}
