package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * fail_open_routing: healthy targets below the unhealthy-state-routing threshold, so the ALB
 * sends traffic to every target, unhealthy ones included. Judged on the pool with cross-zone
 * on and per zone with it off, as ALB does. Reports how many requests reached targets that
 * were marked unhealthy (access logs joined with health state on ip:port).
 */
public final class FailOpenDetector implements Detector<FleetState> {

    private final FleetSettings settings;

    public FailOpenDetector(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        if (!s.isAlb() || s.targets().isEmpty() || !s.settled(now, settings)) {
            return List.of();
        }
        FleetThresholds routing = s.pool.routingThresholds();
        List<String> openZones = new ArrayList<>();
        int healthy = s.healthy();
        int registered = s.registered();
        // unknown is not unhealthy: below the threshold only if it would be were every unknown target healthy
        int unknown = s.unknown();
        if (s.pool.crossZoneOn()) {
            if (!routing.breached(healthy + unknown, registered)) {
                return List.of();
            }
        } else {
            for (Map.Entry<String, List<TargetRecord>> zone : s.byZone().entrySet()) {
                int zoneHealthy = (int) zone.getValue().stream().filter(TargetRecord::isHealthy).count();
                int zoneUnknown = (int) zone.getValue().stream().filter(TargetRecord::isUnknown).count();
                if (routing.breached(zoneHealthy + zoneUnknown, zone.getValue().size())) {
                    openZones.add(zone.getKey() + " " + zoneHealthy + "/" + zone.getValue().size());
                }
            }
            if (openZones.isEmpty()) {
                return List.of();
            }
        }
        long window = settings.correlated().windowMillis();
        long[] traffic = s.traffic.totals(now, window);
        String where = s.pool.crossZoneOn()
                ? s.targetGroup + " has " + healthy + "/" + registered + " healthy targets, below the routing threshold ("
                + routing.describe() + "): the ALB fails open across the pool and sends traffic to unhealthy targets"
                : s.targetGroup + ": zone" + (openZones.size() == 1 ? " " : "s ") + String.join(", ", openZones)
                + " (healthy/registered) below the routing threshold (" + routing.describe()
                + "): with cross-zone off the ALB fails open within " + (openZones.size() == 1 ? "that zone" : "those zones")
                + " and sends traffic to unhealthy targets";
        // what reached the unhealthy targets, whichever way the ALB failed open
        String summary = where + (traffic[0] > 0 ? "; " + traffic[2] + " of " + traffic[0] + " requests in the last "
                + io.hcwatch.detect.Fmt.duration(window) + " reached targets marked unhealthy" : "");
        Finding.Details details = Finding.newDetails()
                .put("healthy", healthy)
                .put("registered", registered)
                .put("unknown", unknown > 0 ? unknown : null)
                .put("threshold", routing.describe())
                .put("required_healthy", routing.required(registered))
                .put("cross_zone", s.pool.crossZoneOn())
                .put("fail_open_zones", openZones.isEmpty() ? null : String.join(",", openZones))
                .put("requests_in_window", traffic[0])
                .put("requests_to_unhealthy_targets", traffic[2])
                .put("config", s.pool.configSource());
        return List.of(new Finding(AlertType.FAIL_OPEN_ROUTING, AlertType.FAIL_OPEN_ROUTING.id() + "/" + s.targetGroup,
                Severity.CRITICAL, Scope.targetGroup(s.pool.lb, s.targetGroup), summary, details.build(), now - window, now));
    }
}
