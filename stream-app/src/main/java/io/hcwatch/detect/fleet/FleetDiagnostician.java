package io.hcwatch.detect.fleet;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Names the likely cause of a fleet-wide failure from what the telemetry shows, in a fixed
 * order: zonal, shared dependency behind a deep check, timeout below real latency, overload
 * cascade, else unknown. Each rule is the signature of one seed incident (SPEC section 1).
 */
public final class FleetDiagnostician {

    private final Settings settings;

    public FleetDiagnostician(Settings settings) {
        this.settings = settings;
    }

    public Diagnosis diagnose(FleetState s, FailingTargets failing, long now, boolean zonal) {
        long window = settings.millis("correlated.window");
        Integer timeout = s.check.timeoutMs;
        Histogram failingLatency = s.failingLatency.window(now, window);
        Histogram passingLatency = s.passingLatency.window(now, settings.millis("headroom.window"));
        long[] traffic = s.traffic.totals(now, window);
        Double successShare = traffic[0] > 0 ? (double) traffic[1] / traffic[0] : null;
        Map<String, Integer> reasons = failing.reasons();
        int dominant = reasons.values().stream().findFirst().orElse(0);
        double dominantShare = failing.size() == 0 ? 0 : (double) dominant / failing.size();
        long interval = s.check.intervalMs != null ? s.check.intervalMs : settings.millis("registry.default-interval");
        boolean atOnce = failing.onsetSpread() <= Math.max(2 * interval, 20_000);
        int timeouts = (int) failing.targets().stream().filter(t -> "timeout".equals(t.lastOutcome)).count();

        Finding.Details evidence = Finding.newDetails()
                .put("failing_check_p50_ms", quantile(failingLatency, 50))
                .put("failing_check_p99_ms", quantile(failingLatency, 99))
                .put("passing_check_p99_ms", quantile(passingLatency, 99))
                .put("timeout_ms", timeout)
                .put("reasons", FailingTargets.describe(reasons))
                .put("onset_spread", Fmt.duration(failing.onsetSpread()))
                .put("traffic_success_share", successShare == null ? "unknown (no access logs)" : Fmt.pct(successShare))
                .put("traffic_requests", traffic[0]);
        LoadTrend load = LoadTrend.of(s, now, window);
        evidence.put("requests_per_healthy_target_change", load.describeLoadChange())
                .put("check_p50_change", load.describeLatencyChange());

        double near = settings.number("diagnosis.near-timeout-ratio");
        boolean timeoutsDominate = failing.size() > 0 && timeouts * 2 >= failing.size();
        boolean passingNearTimeout = timeout != null && passingLatency.getTotalCount() > 0
                && passingLatency.getValueAtPercentile(99) >= near * timeout;
        boolean timeoutCut = s.previousCheck != null && s.previousCheck.timeoutMs != null && timeout != null
                && timeout < s.previousCheck.timeoutMs && now - s.checkChangedAt <= settings.millis("config-risk.lookback");
        if (zonal) {
            // a cascade of timeouts reaches some zone first; fleet-wide latency near the timeout says it is not the zone
            if (timeoutsDominate && (passingNearTimeout || timeoutCut)) {
                return timeoutBelowLatency(s, timeout, timeoutCut,
                        " (so far concentrated in one zone, but checks fleet-wide are close to the timeout)", evidence);
            }
            return new Diagnosis(Diagnosis.Kind.ZONAL,
                    "failures are concentrated in one zone while the others are healthy", evidence.build());
        }
        boolean fast = failingLatency.getTotalCount() > 0 && timeout != null
                && failingLatency.getValueAtPercentile(50) < settings.number("diagnosis.fast-failure-ratio") * timeout;
        boolean fastWithoutTimeouts = timeout == null && timeouts == 0;
        boolean trafficFine = successShare == null || successShare >= settings.number("diagnosis.traffic-success");
        if (atOnce && (fast || fastWithoutTimeouts) && dominantShare >= 0.8 && trafficFine) {
            return new Diagnosis(Diagnosis.Kind.SHARED_DEPENDENCY_DEEP_CHECK,
                    "fast, identical failures (" + failing.dominantReason() + ") across zones at once"
                            + (successShare == null ? "" : " while " + Fmt.pct(successShare) + " of requests still succeed")
                            + ": the check depends on something the traffic does not",
                    evidence.build());
        }
        if (timeoutsDominate && (passingNearTimeout || timeoutCut)) {
            return timeoutBelowLatency(s, timeout, timeoutCut, "", evidence);
        }
        if (!atOnce && load.healthyDropped() && (load.loadRose() || load.latencyRose())) {
            return new Diagnosis(Diagnosis.Kind.OVERLOAD_CASCADE,
                    "failures spread target by target as the healthy count dropped and per-target load or latency rose",
                    evidence.build());
        }
        return new Diagnosis(Diagnosis.Kind.UNKNOWN, "no known signature matched", evidence.build());
    }

    private static Diagnosis timeoutBelowLatency(FleetState s, Integer timeout, boolean timeoutCut, String note,
                                                 Finding.Details evidence) {
        return new Diagnosis(Diagnosis.Kind.TIMEOUT_BELOW_LATENCY,
                "checks time out while even passing checks take close to the " + Fmt.ms(timeout) + " timeout"
                        + (timeoutCut ? " (timeout cut from " + Fmt.ms(s.previousCheck.timeoutMs) + " at "
                        + Fmt.instant(s.checkChangedAt) + ")" : "") + note,
                evidence.build());
    }

    private static Long quantile(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile);
    }
}
