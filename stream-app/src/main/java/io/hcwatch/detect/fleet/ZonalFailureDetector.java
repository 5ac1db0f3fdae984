package io.hcwatch.detect.fleet;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * zonal_failure: most of one zone's targets fail while the other zones are nearly clean. Says
 * whether cross-zone aggregation hides the dead zone from DNS failover and fail-open, because
 * with cross-zone on ALB judges the pool, and a healthy pool keeps a dead zone in DNS.
 */
public final class ZonalFailureDetector implements FleetDetector {

    private final Settings settings;
    private final FleetDiagnostician diagnostician;

    public ZonalFailureDetector(Settings settings, FleetDiagnostician diagnostician) {
        this.settings = settings;
        this.diagnostician = diagnostician;
    }

    @Override
    public List<Finding> evaluate(FleetState s, long now) {
        Map<String, List<TargetRecord>> zones = s.byZone();
        zones.remove("unknown");
        if (zones.size() < 2) {
            s.zonalSince.clear();
            return List.of();
        }
        long window = settings.millis("correlated.window");
        long newAge = settings.millis("registry.new-target-age");
        int minTargets = settings.integer("zonal.min-zone-targets");
        List<Finding> out = new ArrayList<>();
        java.util.Set<String> holding = new java.util.HashSet<>();
        for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
            List<TargetRecord> members = zone.getValue();
            if (members.size() < minTargets) {
                continue;
            }
            int failing = countFailing(s, members, now, window, newAge);
            double share = (double) failing / members.size();
            if (share < settings.number("zonal.zone-fraction")) {
                continue;
            }
            long zoneOnset = failureOnset(s, members, now, window, newAge);
            boolean othersClean = true;
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
                }
            }
            if (!othersClean) {
                continue;
            }
            holding.add(zone.getKey());
            // targets fail and recover at different phases of the check interval: a zone that is
            // merely first to fail or last to recover looks zonal for less than one interval
            long since = s.zonalSince.computeIfAbsent(zone.getKey(), z -> now);
            long interval = s.check.intervalMs != null ? s.check.intervalMs : settings.millis("registry.default-interval");
            if (now - since >= interval) {
                out.add(finding(s, zone.getKey(), members, failing, others.toString(), now, window, newAge));
            }
        }
        s.zonalSince.keySet().retainAll(holding);
        return out;
    }

    private Finding finding(FleetState s, String zone, List<TargetRecord> members, int failing, String others,
                            long now, long window, long newAge) {
        boolean crossZone = s.crossZoneOn();
        int healthyInZone = (int) members.stream().filter(TargetRecord::isHealthy).count();
        int registered = s.registered();
        int healthy = s.healthy();
        String masking;
        if (!s.isAlb()) {
            masking = "not an ALB target group: no DNS failover or fail-open";
        } else if (crossZone) {
            boolean poolDns = s.dnsThresholds().breached(healthy, registered);
            boolean poolRouting = s.routingThresholds().breached(healthy, registered);
            masking = poolDns || poolRouting
                    ? "cross-zone on: the pool itself is below its thresholds"
                    : "cross-zone on: the pool (" + healthy + "/" + registered + " healthy) meets its thresholds, so zone "
                    + zone + " stays in DNS and no fail-open happens; its dead capacity is masked";
        } else {
            boolean dns = s.dnsThresholds().breached(healthyInZone, members.size());
            boolean routing = s.routingThresholds().breached(healthyInZone, members.size());
            masking = "cross-zone off: zone judged alone (" + healthyInZone + "/" + members.size() + " healthy): "
                    + (dns ? "removed from DNS" : "kept in DNS") + ", " + (routing ? "failing open within the zone" : "no fail-open");
        }
        FailingTargets inZone = FailingTargets.of(s, now, window, newAge).inZone(zone);
        Diagnosis diagnosis = diagnostician.diagnose(s, inZone, now, true);
        boolean masked = s.isAlb() && crossZone && masking.contains("masked");
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
                Severity.ERROR, Scope.targetGroup(s.lb, s.targetGroup).withZone(zone), summary, details.build(),
                Math.min(inZone.earliestOnset(), now), now);
    }

    /**
     * Whether another zone is healthy enough to set the failing one apart: few failures, something
     * healthy in it, and every target checked since the failing zone's failures began. Without that
     * last condition the first failures of a fleet-wide fault, which land in some zone first, would
     * be judged against the other zones' checks from before the fault.
     */
    private boolean clean(List<TargetRecord> zone, double share, long since) {
        boolean fewFailing = share < settings.number("zonal.other-zones-max-fraction");
        boolean anyHealthy = zone.stream().anyMatch(TargetRecord::isHealthy);
        // HAProxy logs a server only when its state changes: its last state stands
        boolean checkedSince = zone.stream().allMatch(t -> t.lastSeen >= since || "haproxy".equals(t.source));
        return fewFailing && anyHealthy && checkedSince;
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
