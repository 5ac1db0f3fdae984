package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;

/**
 * no_healthy_targets where the load balancer does not fail open: an HAProxy backend with no
 * server left (its "has no server available!" message, or every known server DOWN), or an ALB
 * answering 503 with no target at all.
 */
public final class NoHealthyTargetsDetector implements Detector<FleetState> {

    private final FleetSettings settings;

    public NoHealthyTargetsDetector(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        int healthy = s.healthy();
        if (s.pool.isHaproxy()) {
            BackendSignals backend = s.backend;
            boolean announced = backend.noServerAt > 0 && !anyUpSince(s, backend.noServerAt);
            // HAProxy logs a server only when it changes, so the servers hcwatch knows may be just the one
            // that went DOWN. HAProxy's own count of active servers left (its state message follows the
            // check message) decides; without one, the servers must have stayed DOWN past that instant.
            boolean allDown;
            if (backend.activeServersLeft != null) {
                allDown = healthy == 0 && backend.activeServersLeft == 0;
            } else {
                allDown = !s.targets().isEmpty() && healthy == 0
                        && s.targets().values().stream().allMatch(t -> "unhealthy".equals(t.state) && t.unhealthySince < now);
            }
            if (!announced && !allDown) {
                return List.of();
            }
            String known;
            if (s.targets().isEmpty()) {
                known = "";
            } else if (allDown) {
                known = " (" + s.targets().size() + " known servers, all DOWN)";
            } else {
                known = " (HAProxy says so; hcwatch last saw " + healthy + " of " + s.targets().size() + " servers UP)";
            }
            String summary = "HAProxy backend " + s.targetGroup + " has no server available" + known
                    + ": requests get 503 <NOSRV>";
            return List.of(finding(s, summary, Finding.newDetails()
                    .put("backend", s.targetGroup)
                    .put("known_servers", s.targets().size())
                    .put("healthy", healthy)
                    .put("announced_at", backend.noServerAt > 0 ? Fmt.instant(backend.noServerAt) : null)
                    .put("message", backend.noServerMessage), announced ? backend.noServerAt : now, now));
        }
        long window = settings.stepMillis() * 2;
        long[] traffic = s.traffic.totals(now, window);
        if (traffic[3] < settings.noHealthyMin503()) {
            return List.of();
        }
        String summary = "ALB target group " + s.targetGroup + " answered " + traffic[3] + " requests with 503 and no target in the last "
                + Fmt.duration(window) + ": no target to route to, not even by failing open";
        return List.of(finding(s, summary, Finding.newDetails()
                .put("no_target_503", traffic[3])
                .put("requests", traffic[0])
                .put("known_targets", s.targets().size()), now - window, now));
    }

    private static boolean anyUpSince(FleetState s, long since) {
        return s.targets().values().stream().anyMatch(t -> t.isHealthy() && t.lastSeen >= since);
    }

    private static Finding finding(FleetState s, String summary, Finding.Details details, long start, long now) {
        return new Finding(AlertType.NO_HEALTHY_TARGETS, AlertType.NO_HEALTHY_TARGETS.id() + "/" + s.targetGroup,
                Severity.CRITICAL, Scope.targetGroup(s.pool.lb, s.targetGroup), summary, details.build(), Math.min(start, now), now);
    }
}
