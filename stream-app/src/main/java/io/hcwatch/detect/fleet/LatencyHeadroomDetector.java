package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * health_latency_headroom: the health endpoint's p99 over the window is a large share of the
 * check timeout, so a little more load turns slow checks into failed ones fleet-wide. Reports
 * p50/p95/p99, the p99 slope and time until it reaches the timeout, and a safer timeout.
 */
public final class LatencyHeadroomDetector implements Detector<FleetState> {

    private final FleetSettings.Headroom rule;

    public LatencyHeadroomDetector(FleetSettings settings) {
        this.rule = settings.headroom();
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        Integer timeout = s.settings().timeoutMs;
        if (timeout == null || timeout <= 0) {
            return List.of();
        }
        long window = rule.windowMillis();
        Histogram h = s.latency.all.window(now, window);
        if (h.getTotalCount() < rule.minSamples()) {
            return List.of();
        }
        double p50 = h.getValueAtPercentile(50);
        double p95 = h.getValueAtPercentile(95);
        double p99 = h.getValueAtPercentile(99);
        double ratio = p99 / timeout;
        double warningRatio = rule.warningRatio();
        if (ratio < warningRatio || lostNotSlow(s, now, window, timeout, warningRatio)) {
            return List.of();
        }
        int timeoutTargets = s.latency.timeoutTargetsSince(now - window);
        boolean critical = ratio >= rule.criticalRatio() || timeoutTargets >= rule.criticalTimeoutTargets();
        long trendFrom = now - rule.trendWindowMillis();
        double slope = s.history.p99SlopePerSecond(trendFrom, now);
        String timeToTimeout;
        if (p99 >= timeout) {
            timeToTimeout = "reached";
        } else if (!Double.isNaN(slope) && slope > 0) {
            timeToTimeout = Fmt.duration(Math.round((timeout - p99) / slope * 1000));
        } else {
            timeToTimeout = "not rising";
        }
        long recommended = rule.recommendedTimeout(p99);
        String summary = "health check p99 of " + s.targetGroup + " is " + Fmt.ms(p99) + ", " + Fmt.pct(ratio)
                + " of the " + Fmt.ms(timeout) + " timeout" + (timeoutTargets > 0 ? "; " + timeoutTargets
                + " target" + (timeoutTargets == 1 ? "" : "s") + " timed out" : "")
                + "; recommended timeout " + Fmt.seconds(recommended);
        Finding.Details details = Finding.newDetails()
                .put("p50_ms", Math.round(p50))
                .put("p95_ms", Math.round(p95))
                .put("p99_ms", Math.round(p99))
                .put("samples", h.getTotalCount())
                .put("timeout_ms", timeout)
                .put("headroom_ratio", Fmt.decimal(ratio, 2))
                .put("timeout_targets", timeoutTargets)
                .put("p99_slope_ms_per_min", Double.isNaN(slope) ? "unknown" : Fmt.decimal(slope * 60, 1))
                .put("time_until_p99_reaches_timeout", timeToTimeout)
                .put("recommended_timeout_ms", recommended)
                .put("interval_ms", s.settings().intervalMs);
        if (s.settings().intervalMs != null && recommended >= s.settings().intervalMs) {
            details.put("note", "the recommended timeout needs an interval above it (ALB requires timeout < interval)");
        }
        return List.of(new Finding(AlertType.HEALTH_LATENCY_HEADROOM,
                AlertType.HEALTH_LATENCY_HEADROOM.id() + "/" + s.targetGroup,
                critical ? Severity.CRITICAL : Severity.WARNING, Scope.targetGroup(s.pool.lb, s.targetGroup),
                summary, details.build(), now - window, now));
    }

    /**
     * Timeouts count at the timeout in the p99, which is right when they are the slow tail of a
     * slow endpoint. When the checks that do answer are well inside the limit, though, the
     * timeouts are checks that were lost (packet loss, a dead zone, a hung target): a longer
     * timeout would not save them, and zonal or correlated failure is the alert that fits.
     */
    private boolean lostNotSlow(FleetState s, long now, long window, int timeout, double warningRatio) {
        Histogram passing = s.latency.passing.window(now, window);
        return passing.getTotalCount() >= rule.minSamples()
                && passing.getValueAtPercentile(99) < warningRatio * timeout;
    }
}
