package io.hcwatch.detect.fleet;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
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
public final class LatencyHeadroomDetector implements FleetDetector {

    private final Settings settings;

    public LatencyHeadroomDetector(Settings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> evaluate(FleetState s, long now) {
        Integer timeout = s.check.timeoutMs;
        if (timeout == null || timeout <= 0) {
            return List.of();
        }
        long window = settings.millis("headroom.window");
        Histogram h = s.latency.window(now, window);
        if (h.getTotalCount() < settings.integer("headroom.min-samples")) {
            return List.of();
        }
        double p50 = h.getValueAtPercentile(50);
        double p95 = h.getValueAtPercentile(95);
        double p99 = h.getValueAtPercentile(99);
        double ratio = p99 / timeout;
        double warningRatio = settings.number("headroom.warning-ratio");
        if (ratio < warningRatio || lostNotSlow(s, now, window, timeout, warningRatio)) {
            return List.of();
        }
        int timeoutTargets = (int) s.timeoutsAt.values().stream().filter(t -> t > now - window).count();
        boolean critical = ratio >= settings.number("headroom.critical-ratio")
                || timeoutTargets >= settings.integer("headroom.critical-timeout-targets");
        long trendFrom = now - settings.millis("headroom.trend-window");
        double slope = s.history.p99SlopePerSecond(trendFrom, now);
        String timeToTimeout;
        if (p99 >= timeout) {
            timeToTimeout = "reached";
        } else if (!Double.isNaN(slope) && slope > 0) {
            timeToTimeout = Fmt.duration(Math.round((timeout - p99) / slope * 1000));
        } else {
            timeToTimeout = "not rising";
        }
        long recommended = recommendedTimeout(p99);
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
                .put("interval_ms", s.check.intervalMs);
        if (s.check.intervalMs != null && recommended >= s.check.intervalMs) {
            details.put("note", "the recommended timeout needs an interval above it (ALB requires timeout < interval)");
        }
        return List.of(new Finding(AlertType.HEALTH_LATENCY_HEADROOM,
                AlertType.HEALTH_LATENCY_HEADROOM.id() + "/" + s.targetGroup,
                critical ? Severity.CRITICAL : Severity.WARNING, Scope.targetGroup(s.lb, s.targetGroup),
                summary, details.build(), now - window, now));
    }

    /**
     * Timeouts count at the timeout in the p99, which is right when they are the slow tail of a
     * slow endpoint. When the checks that do answer are well inside the limit, though, the
     * timeouts are checks that were lost (packet loss, a dead zone, a hung target): a longer
     * timeout would not save them, and zonal or correlated failure is the alert that fits.
     */
    private boolean lostNotSlow(FleetState s, long now, long window, int timeout, double warningRatio) {
        Histogram passing = s.passingLatency.window(now, window);
        return passing.getTotalCount() >= settings.integer("headroom.min-samples")
                && passing.getValueAtPercentile(99) < warningRatio * timeout;
    }

    /** max(floor, multiple x p99), rounded up to whole seconds as ALB takes them. */
    long recommendedTimeout(double p99) {
        double raw = Math.max(settings.millis("headroom.recommend-floor"), settings.number("headroom.recommend-multiple") * p99);
        return (long) Math.ceil(raw / 1000.0) * 1000;
    }
}
