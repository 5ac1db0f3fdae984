package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
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
        Map<String, List<TargetRecord>> zones = s.byZone();
        List<Finding> out = new ArrayList<>();
        if (s.pool.crossZoneOn()) {
            int healthy = s.healthy();
            int registered = s.registered();
            // unknown is not unhealthy: below the threshold only if it would be were every unknown target healthy
            if (dns.breached(healthy + s.unknown(), registered)) {
                out.add(finding(s, null, healthy, registered, dns, "cross-zone on: the pool is below the DNS failover threshold, "
                        + "so every zone is unhealthy in DNS and ALB keeps answering with all of them", now));
                return out;
            }
            if (dns.breached(healthy, registered)) {
                // only the unknown targets could keep the pool above the threshold: whether a dead zone is
                // masked by a healthy pool cannot be told
                return out;
            }
            for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
                int zoneHealthy = healthyIn(zone.getValue());
                if (!"unknown".equals(zone.getKey()) && zoneHealthy + unknownIn(zone.getValue()) == 0) {
                    out.add(finding(s, zone.getKey(), 0, zone.getValue().size(), dns,
                            "zone " + zone.getKey() + " has no healthy target but cross-zone aggregation (pool " + healthy + "/"
                                    + registered + " healthy) keeps it in DNS: clients resolving to its node are served by other zones",
                            now));
                }
            }
            return out;
        }
        Map<String, int[]> breaching = new LinkedHashMap<>();
        for (Map.Entry<String, List<TargetRecord>> zone : zones.entrySet()) {
            int zoneHealthy = healthyIn(zone.getValue());
            if (dns.breached(zoneHealthy + unknownIn(zone.getValue()), zone.getValue().size())) {
                breaching.put(zone.getKey(), new int[] {zoneHealthy, zone.getValue().size()});
            }
        }
        boolean allZones = breaching.size() == zones.size();
        breaching.forEach((zone, counts) -> out.add(finding(s, zone, counts[0], counts[1], dns, allZones
                ? "every zone is below the DNS failover threshold, so ALB keeps all zones in DNS (no zone left to fail over to)"
                : "cross-zone off: zone " + zone + " is below the DNS failover threshold and is removed from DNS", now)));
        return out;
    }

    private static Finding finding(FleetState s, String zone, int healthy, int registered, FleetThresholds dns,
                                   String action, long now) {
        String where = zone == null ? "the pool" : "zone " + zone;
        String summary = s.targetGroup + ": " + where + " has " + healthy + "/" + registered + " healthy targets (DNS failover threshold "
                + dns.describe() + "); " + action;
        Map<String, String> details = Finding.newDetails()
                .put("zone", zone)
                .put("healthy", healthy)
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
