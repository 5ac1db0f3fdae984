package io.hcwatch.detect.fleet;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * health_check_config_risk: judged at the first record with new check settings, before any
 * failure they cause. The new timeout is compared with the peak p99 check latency of the
 * hour before: below 2x is critical, below 10x warns (timeout = max(10s, 10 x p99)).
 * A change that only makes the check more lenient never fires.
 */
public final class ConfigRiskDetector implements FleetDetector {

    private final Settings settings;

    public ConfigRiskDetector(Settings settings) {
        this.settings = settings;
    }

    /** Called when {@code before} was replaced by the state's current settings at {@code now}. */
    public void onChange(FleetState s, CheckSettings before, long now) {
        s.configRisk = null;
        CheckSettings after = s.check;
        if (after.timeoutMs == null || !stricter(before, after)) {
            return;
        }
        long lookback = settings.millis("config-risk.lookback");
        double peak = s.history.peakP99(now - lookback, now);
        Histogram current = s.latency.window(now, settings.millis("headroom.window"));
        if (current.getTotalCount() >= settings.integer("headroom.min-samples")) {
            double p99 = current.getValueAtPercentile(99);
            peak = Double.isNaN(peak) ? p99 : Math.max(peak, p99);
        }
        if (Double.isNaN(peak) || peak <= 0) {
            return;
        }
        double multiple = after.timeoutMs / peak;
        Severity severity;
        if (multiple < settings.number("config-risk.critical-multiple")) {
            severity = Severity.CRITICAL;
        } else if (multiple < settings.number("config-risk.warning-multiple")) {
            severity = Severity.WARNING;
        } else {
            return;
        }
        long recommended = (long) Math.ceil(Math.max(settings.millis("headroom.recommend-floor"),
                settings.number("headroom.recommend-multiple") * peak) / 1000.0) * 1000;
        List<String> changes = before.changesTo(after);
        ConfigRisk risk = new ConfigRisk();
        risk.changedAt = now;
        risk.timeoutMs = after.timeoutMs;
        risk.severity = severity.name();
        risk.summary = "health check of " + s.targetGroup + " changed (" + String.join(", ", changes)
                + "): new timeout " + Fmt.ms(after.timeoutMs) + " is " + Fmt.decimal(multiple, 1)
                + "x the peak p99 check latency of the last " + Fmt.duration(lookback) + " (" + Fmt.ms(peak)
                + "); recommended timeout " + Fmt.seconds(recommended);
        risk.details = Finding.newDetails()
                .put("changes", String.join("; ", changes))
                .put("old_timeout_ms", before.timeoutMs)
                .put("new_timeout_ms", after.timeoutMs)
                .put("old_interval_ms", before.intervalMs)
                .put("new_interval_ms", after.intervalMs)
                .put("old_unhealthy_threshold", before.unhealthyThreshold)
                .put("new_unhealthy_threshold", after.unhealthyThreshold)
                .put("peak_p99_ms", Math.round(peak))
                .put("timeout_over_peak_p99", Fmt.decimal(multiple, 2))
                .put("recommended_timeout_ms", recommended)
                .put("changed_at", Fmt.instant(now))
                .build();
        s.configRisk = risk;
    }

    @Override
    public List<Finding> evaluate(FleetState s, long now) {
        ConfigRisk risk = s.configRisk;
        if (risk == null) {
            return List.of();
        }
        boolean superseded = !Objects.equals(risk.timeoutMs, s.check.timeoutMs);
        if (superseded || now - risk.changedAt > settings.millis("config-risk.lookback")) {
            return List.of();
        }
        return List.of(new Finding(AlertType.HEALTH_CHECK_CONFIG_RISK,
                AlertType.HEALTH_CHECK_CONFIG_RISK.id() + "/" + s.targetGroup, Severity.valueOf(risk.severity),
                Scope.targetGroup(s.lb, s.targetGroup), risk.summary, risk.details,
                risk.changedAt - settings.millis("config-risk.lookback"), risk.changedAt));
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
