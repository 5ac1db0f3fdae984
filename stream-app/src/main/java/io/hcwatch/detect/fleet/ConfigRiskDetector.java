package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;
import java.util.Objects;

/**
 * health_check_config_risk: judged from the first record with new check settings, before any
 * failure they cause. The new timeout is compared with the peak p99 check latency of the hour
 * before the change ({@link CheckChange#peakP99}): below 2x is critical, below 10x warns
 * (timeout = max(10s, 10 x p99)). A change that only makes the check more lenient never fires;
 * the finding holds until the change is superseded or the lookback has passed.
 */
public final class ConfigRiskDetector implements Detector<FleetState> {

    private final FleetSettings settings;

    public ConfigRiskDetector(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        CheckChange change = s.check.lastChange;
        if (change == null || change.after.timeoutMs == null || !stricter(change.before, change.after)
                || Double.isNaN(change.peakP99) || change.peakP99 <= 0) {
            return List.of();
        }
        long lookback = settings.configRisk().lookbackMillis();
        boolean superseded = !Objects.equals(change.after.timeoutMs, s.settings().timeoutMs);
        if (superseded || now - change.at > lookback) {
            return List.of();
        }
        double peak = change.peakP99;
        double multiple = change.after.timeoutMs / peak;
        Severity severity;
        if (multiple < settings.configRisk().criticalMultiple()) {
            severity = Severity.CRITICAL;
        } else if (multiple < settings.configRisk().warningMultiple()) {
            severity = Severity.WARNING;
        } else {
            return List.of();
        }
        long recommended = settings.headroom().recommendedTimeout(peak);
        List<String> changes = change.before.changesTo(change.after);
        String summary = "health check of " + s.targetGroup + " changed (" + String.join(", ", changes)
                + "): new timeout " + Fmt.ms(change.after.timeoutMs) + " is " + Fmt.decimal(multiple, 1)
                + "x the peak p99 check latency of the last " + Fmt.duration(lookback) + " (" + Fmt.ms(peak)
                + "); recommended timeout " + Fmt.seconds(recommended);
        Finding.Details details = Finding.newDetails()
                .put("changes", String.join("; ", changes))
                .put("old_timeout_ms", change.before.timeoutMs)
                .put("new_timeout_ms", change.after.timeoutMs)
                .put("old_interval_ms", change.before.intervalMs)
                .put("new_interval_ms", change.after.intervalMs)
                .put("old_unhealthy_threshold", change.before.unhealthyThreshold)
                .put("new_unhealthy_threshold", change.after.unhealthyThreshold)
                .put("peak_p99_ms", Math.round(peak))
                .put("timeout_over_peak_p99", Fmt.decimal(multiple, 2))
                .put("recommended_timeout_ms", recommended)
                .put("changed_at", Fmt.instant(change.at));
        return List.of(new Finding(AlertType.HEALTH_CHECK_CONFIG_RISK,
                AlertType.HEALTH_CHECK_CONFIG_RISK.id() + "/" + s.targetGroup, severity,
                Scope.targetGroup(s.pool.lb, s.targetGroup), summary, details.build(), change.at - lookback, change.at));
    }

    /** Whether the change can only make targets fail sooner: shorter timeout or interval, lower unhealthy threshold, new path. */
    static boolean stricter(CheckSettings before, CheckSettings after) {
        boolean timeoutDown = lower(after.timeoutMs, before.timeoutMs);
        boolean intervalDown = lower(after.intervalMs, before.intervalMs);
        boolean thresholdDown = lower(after.unhealthyThreshold, before.unhealthyThreshold);
        boolean pathChanged = before.path != null && after.path != null && !before.path.equals(after.path);
        boolean timeoutUp = lower(before.timeoutMs, after.timeoutMs);
        return !timeoutUp && (timeoutDown || intervalDown || thresholdDown || pathChanged);
    }

    private static boolean lower(Integer a, Integer b) {
        return a != null && b != null && a < b;
    }
}
