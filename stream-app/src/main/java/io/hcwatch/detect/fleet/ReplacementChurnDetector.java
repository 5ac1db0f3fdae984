package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;
import java.util.OptionalLong;

/**
 * replacement_churn: new targets marked unhealthy before they were ever healthy. The
 * autoscaler replaces them, the replacements die the same way, and capacity never comes back:
 * the cold start is slower than the check allows.
 */
public final class ReplacementChurnDetector implements Detector<FleetState> {

    private final FleetSettings settings;

    public ReplacementChurnDetector(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        long window = settings.churn().windowMillis();
        List<ChurnEvent> recent = s.registry.churn.stream().filter(c -> c.unhealthyAt > now - window && c.unhealthyAt <= now).toList();
        if (recent.size() < settings.churn().minTargets()) {
            return List.of();
        }
        Integer timeout = s.settings().timeoutMs;
        StringBuilder latencies = new StringBuilder();
        long lifeSum = 0;
        int lives = 0;
        for (ChurnEvent c : recent) {
            latencies.append(latencies.length() > 0 ? "," : "").append(c.firstLatencyMs == null ? "?" : c.firstLatencyMs);
            if (c.joinedAt >= 0) {
                lifeSum += c.unhealthyAt - c.joinedAt;
                lives++;
            }
        }
        String meanLife = lives == 0 ? "unknown" : Fmt.duration(lifeSum / lives);
        Registry registry = s.registry;
        OptionalLong warmup = s.targets().values().stream()
                .filter(t -> t.everHealthy() && registry.joinedAt(t) >= 0 && t.firstHealthyAt > now - window)
                .mapToLong(t -> t.firstHealthyAt - registry.joinedAt(t))
                .max();
        long interval = settings.interval(s.settings());
        int unhealthyThreshold = s.settings().failuresToFail();
        String grace = warmup.isPresent() && warmup.getAsLong() > 0
                ? "replacements that did become healthy needed " + Fmt.duration(warmup.getAsLong())
                + "; an autoscaling health check grace period of at least " + Fmt.duration(Math.round(warmup.getAsLong() * 1.5))
                + " keeps them from being replaced while they warm up"
                : "no replacement became healthy after a warm-up in the window; the checks allow "
                + Fmt.duration(interval * unhealthyThreshold) + " before marking a new target unhealthy";
        String summary = recent.size() + " new targets of " + s.targetGroup + " were marked unhealthy before ever being healthy within "
                + Fmt.duration(window) + " (first checks " + latencies + " ms"
                + (timeout == null ? "" : " vs timeout " + timeout + " ms") + ")";
        Finding.Details details = Finding.newDetails()
                .put("killed_before_healthy", recent.size())
                .put("targets", String.join(",", recent.stream().map(c -> c.target).toList()))
                .put("first_check_latencies_ms", latencies)
                .put("timeout_ms", timeout)
                .put("mean_time_to_unhealthy", meanLife)
                .put("checks_allowed_before_unhealthy", Fmt.duration(interval * unhealthyThreshold))
                .put("observed_warmup", warmup.isPresent() && warmup.getAsLong() > 0
                        ? Fmt.duration(warmup.getAsLong()) : "none became healthy")
                .put("grace_period", grace)
                .put("reason", recent.get(recent.size() - 1).reason);
        long start = recent.stream().mapToLong(c -> c.joinedAt >= 0 ? c.joinedAt : c.unhealthyAt).min().orElse(now);
        return List.of(new Finding(AlertType.REPLACEMENT_CHURN, AlertType.REPLACEMENT_CHURN.id() + "/" + s.targetGroup,
                Severity.CRITICAL, Scope.targetGroup(s.pool.lb, s.targetGroup), summary, details.build(), start, now));
    }
}
