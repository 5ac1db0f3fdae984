package io.hcwatch.detect.fleet;

import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Names the likely cause of a fleet-wide failure from what the telemetry shows, in a fixed
 * order: zonal, shared dependency behind a deep check, timeout below real latency, overload
 * cascade, else unknown. Each rule is the signature of one seed incident (docs/contract.md, "Why: the incidents").
 */
public final class FleetDiagnostician {

    private final FleetSettings settings;

    public FleetDiagnostician(FleetSettings settings) {
        this.settings = settings;
    }

    /**
     * @param zonalAlert true for a zonal_failure: its diagnosis is zonal unless the fleet's own
     *                   latency says a timeout cascade merely reached that zone first
     */
    public Diagnosis diagnose(FleetState s, FailingTargets failing, long now, boolean zonalAlert) {
        long window = settings.correlated().windowMillis();
        FleetSettings.Diagnosis rules = settings.diagnosis();
        Integer timeout = s.settings().timeoutMs;
        Histogram failingLatency = s.latency.failing.window(now, window);
        Histogram passingLatency = s.latency.passing.window(now, settings.headroom().windowMillis());
        long[] traffic = s.traffic.totals(now, window);
        Double successShare = traffic[0] > 0 ? (double) traffic[1] / traffic[0] : null;
        Map<String, Integer> reasons = failing.reasons();
        int dominant = reasons.values().stream().findFirst().orElse(0);
        double dominantShare = failing.size() == 0 ? 0 : (double) dominant / failing.size();
        long interval = settings.interval(s.settings());
        boolean atOnce = failing.onsetSpread() <= Math.max(rules.atOnceIntervals() * interval, 20_000);
        int timeouts = (int) failing.targets().stream().filter(t -> "timeout".equals(t.lastOutcome)).count();
        Map<String, Integer> zones = failing.byZone();
        String topZone = zones.entrySet().stream().filter(e -> !e.getKey().equals("unknown"))
                .max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        double zoneShare = topZone == null || failing.size() == 0 ? 0 : (double) zones.get(topZone) / failing.size();

        Finding.Details evidence = Finding.newDetails()
                .put("failing_check_p50_ms", quantile(failingLatency, 50))
                .put("failing_check_p99_ms", quantile(failingLatency, 99))
                .put("passing_check_p99_ms", quantile(passingLatency, 99))
                .put("timeout_ms", timeout)
                .put("reasons", FailingTargets.describe(reasons))
                .put("onset_spread", Fmt.duration(failing.onsetSpread()))
                .put("traffic_success_share", successShare == null ? "unknown (no access logs)" : Fmt.pct(successShare))
                .put("traffic_requests", traffic[0]);
        LoadTrend load = LoadTrend.of(s, now, window, rules.riseRatio());
        evidence.put("requests_per_healthy_target_change", load.describeLoadChange())
                .put("check_p50_change", load.describeLatencyChange());

        double near = rules.nearTimeoutRatio();
        boolean timeoutsDominate = failing.size() > 0 && timeouts * 2 >= failing.size();
        boolean passingNearTimeout = timeout != null && passingLatency.getTotalCount() > 0
                && passingLatency.getValueAtPercentile(99) >= near * timeout;
        boolean passingFast = timeout != null && passingLatency.getTotalCount() > 0
                && passingLatency.getValueAtPercentile(99) < near * timeout;
        boolean timeoutCut = s.check.timeoutCutWithin(now, settings.configRisk().lookbackMillis());
        boolean concentrated = topZone != null && zoneShare >= rules.zoneConcentration();
        if (zonalAlert || concentrated) {
            // a cascade of timeouts reaches some zone first; fleet-wide latency near the timeout says it is not the zone
            if (timeoutsDominate && (passingNearTimeout || timeoutCut)) {
                return timeoutBelowLatency(s, timeout, timeoutCut, passingNearTimeout,
                        passingNearTimeout ? " (so far concentrated in one zone, but checks fleet-wide are close to the timeout)"
                                : " (so far concentrated in one zone, but the timeout was cut for the whole target group)", evidence);
            }
            return new Diagnosis(Diagnosis.Kind.ZONAL, Fmt.pct(zoneShare) + " of the failing targets are in " + topZone
                    + ": look for what that zone does not share with the others", evidence.build());
        }
        boolean identical = dominantShare >= rules.identicalShare();
        boolean trafficFine = successShare == null || successShare >= rules.trafficSuccess();
        boolean fast = failingLatency.getTotalCount() > 0 && (timeout == null
                ? timeouts == 0
                : failingLatency.getValueAtPercentile(50) < rules.fastFailureRatio() * timeout);
        // a dependency that stops answering makes a fast check hang until the timeout: sudden timeouts
        // from an endpoint whose passing checks were far from the timeout are the same signature
        boolean suddenTimeouts = timeoutsDominate && passingFast && !timeoutCut;
        if (atOnce && identical && trafficFine && (fast || suddenTimeouts)) {
            return new Diagnosis(Diagnosis.Kind.SHARED_DEPENDENCY_DEEP_CHECK,
                    (fast ? "fast" : "sudden") + ", identical failures (" + failing.dominantReason() + ") across zones at once"
                            + (successShare == null ? "" : " while " + Fmt.pct(successShare) + " of requests still succeed")
                            + ": the check depends on something the traffic does not",
                    evidence.build());
        }
        if (timeoutsDominate && (passingNearTimeout || timeoutCut)) {
            return timeoutBelowLatency(s, timeout, timeoutCut, passingNearTimeout, "", evidence);
        }
        if (!atOnce && load.healthyDropped() && (load.loadRose() || load.latencyRose())) {
            return new Diagnosis(Diagnosis.Kind.OVERLOAD_CASCADE,
                    "failures spread target by target as the healthy count dropped and per-target load or latency rose",
                    evidence.build());
        }
        return new Diagnosis(Diagnosis.Kind.UNKNOWN, "no known signature matched", evidence.build());
    }

    /** The reason names what was seen: passing checks near the timeout, a cut, or both; never one for the other. */
    private static Diagnosis timeoutBelowLatency(FleetState s, Integer timeout, boolean timeoutCut, boolean passingNearTimeout,
                                                 String note, Finding.Details evidence) {
        String cut = timeoutCut ? "timeout cut from " + Fmt.ms(s.check.lastChange.before.timeoutMs) + " at "
                + Fmt.instant(s.check.lastChange.at) : null;
        String reason = passingNearTimeout
                ? "checks time out while even passing checks take close to the " + Fmt.ms(timeout) + " timeout"
                        + (cut == null ? "" : " (" + cut + ")")
                : "checks time out since the " + cut + " to " + Fmt.ms(timeout);
        return new Diagnosis(Diagnosis.Kind.TIMEOUT_BELOW_LATENCY, reason + note, evidence.build());
    }

    private static Long quantile(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile);
    }
}
