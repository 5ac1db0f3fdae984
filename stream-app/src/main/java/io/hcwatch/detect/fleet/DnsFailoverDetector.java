package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dns_failover, following ALB's target-group-health rules: with cross-zone off each zone is
 * judged on its own targets and a zone below the DNS threshold leaves DNS, unless every zone
 * is below it (then ALB keeps them all); with cross-zone on the pool is judged, and a zone at
 * zero healthy targets stays in DNS as long as the pool is fine, which hcwatch also warns about.
 * Healthy counts are {@link SteadyHealth}'s: a zone flapping between 0 and 1 healthy target while
 * its targets fail and are replaced is one finding while the flapping lasts, not one per change.
 */
public final class DnsFailoverDetector implements Detector<FleetState> {

    private final FleetSettings settings;

    public DnsFailoverDetector(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        if (!s.isAlb() || s.targets().isEmpty() || !s.settled(now, settings)) {
            return List.of();
        }
        FleetThresholds dns = s.pool.dnsThresholds();
        long window = settings.correlated().windowMillis();
        Map<String, List<TargetRecord>> zones = s.byZone();
        List<Finding> out = new ArrayList<>();
        if (s.pool.crossZoneOn()) {
            SteadyHealth pool = SteadyHealth.of(s, s.targets().values(), null, now, window);
            int healthy = pool.healthy();
            int registered = s.registered();
            // unknown is not unhealthy: below the threshold only if it would be were every unknown target healthy
            if (dns.breached(healthy + s.unknown(), registered)) {
                out.add(finding(s, null, pool, registered, dns, "cross-zone on: the pool is below the DNS failover threshold, "
                        + "so every zone is unhealthy in DNS and ALB keeps answering with all of them", now));
                return out;
            }
            if (dns.breached(healthy, registered)) {
                // only the unknown targets could keep the pool above the threshold: whether a dead zone is
                // masked by a healthy pool cannot be told
                return out;
            }
            for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
                SteadyHealth zoneHealth = SteadyHealth.of(s, zone.getValue(), zone.getKey(), now, window);
                if (!"unknown".equals(zone.getKey()) && zoneHealth.healthy() + unknownIn(zone.getValue()) == 0) {
                    out.add(finding(s, zone.getKey(), zoneHealth, zone.getValue().size(), dns,
                            "zone " + zone.getKey() + " has no healthy target but cross-zone aggregation (pool " + healthy + "/"
                                    + registered + " healthy) keeps it in DNS: clients resolving to its node are served by other zones",
                            now));
                }
            }
            return out;
        }
        Map<String, SteadyHealth> breaching = new LinkedHashMap<>();
        for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
            SteadyHealth zoneHealth = SteadyHealth.of(s, zone.getValue(), zone.getKey(), now, window);
            if (dns.breached(zoneHealth.healthy() + unknownIn(zone.getValue()), zone.getValue().size())) {
                breaching.put(zone.getKey(), zoneHealth);
            }
        }
        boolean allZones = breaching.size() == zones.size();
        breaching.forEach((zone, health) -> out.add(finding(s, zone, health, zones.get(zone).size(), dns, allZones
                ? "every zone is below the DNS failover threshold, so ALB keeps all zones in DNS (no zone left to fail over to)"
                : "cross-zone off: zone " + zone + " is below the DNS failover threshold and is removed from DNS", now)));
        return out;
    }

    private Finding finding(FleetState s, String zone, SteadyHealth health, int registered, FleetThresholds dns,
                                   String action, long now) {
        String where = zone == null ? "the pool" : "zone " + zone;
        String recovering = health.recovering() == 0 ? ""
                : ", " + health.recovering() + " more passing again for less than " + Fmt.duration(settings.correlated().windowMillis()) + " after failures";
        String summary = s.targetGroup + ": " + where + " has " + health.healthy() + "/" + registered + " healthy targets"
                + recovering + " (DNS failover threshold " + dns.describe() + "); " + action;
        Map<String, String> details = Finding.newDetails()
                .put("zone", zone)
                .put("healthy", health.healthy())
                .put("recovering", health.recovering() > 0 ? health.recovering() : null)
                .put("registered", registered)
                .put("unknown", s.unknown() > 0 ? s.unknown() : null)
                .put("threshold", dns.describe())
                .put("cross_zone", s.pool.crossZoneOn())
                .put("action", action)
                .put("config", s.pool.configSource())
                .build();
        String key = AlertType.DNS_FAILOVER.id() + "/" + s.targetGroup + (zone == null ? "" : "/" + zone);
        Scope scope = Scope.targetGroup(s.pool.lb, s.targetGroup).withZone(zone);
        return new Finding(AlertType.DNS_FAILOVER, key, Severity.WARNING, scope, summary, details, now, now);
    }

    private static int healthyIn(List<TargetRecord> targets) {
        return (int) targets.stream().filter(TargetRecord::isHealthy).count();
    }

    private static int unknownIn(List<TargetRecord> targets) {
        return (int) targets.stream().filter(TargetRecord::isUnknown).count();
    }
}
