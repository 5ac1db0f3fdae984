package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.List;
import java.util.Map;

/**
 * correlated_failure: at least max(min-targets, min-fraction of known targets) established
 * targets fail within the window across two or more zones (or zones unknown). Independent
 * failures are rare enough that this many at once means one cause behind them.
 */
public final class CorrelatedFailureDetector implements Detector<FleetState> {

    private final FleetSettings settings;
    private final FleetDiagnostician diagnostician;

    public CorrelatedFailureDetector(FleetSettings settings, FleetDiagnostician diagnostician) {
        this.settings = settings;
        this.diagnostician = diagnostician;
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        FleetSettings.Correlated rule = settings.correlated();
        FailingTargets failing = FailingTargets.includingReplaced(s, now, rule.windowMillis(),
                settings.registry().newTargetAgeMillis());
        int known = known(s, now, rule.windowMillis());
        if (!holds(s, failing, now, rule, true)) {
            return List.of();
        }
        Map<String, Integer> zones = failing.byZone();
        int healthy = s.healthy();
        FleetThresholds routing = s.pool.routingThresholds();
        boolean belowMinimum = s.isAlb() && routing.breached(healthy, s.registered());
        double share = (double) failing.size() / known;
        boolean criticalNow = share >= rule.criticalFraction() || belowMinimum;
        long damagedAt = criticalNow ? -1 : lastDamaged(s, now, rule);
        int failedInHold = criticalNow || damagedAt >= 0 ? 0 : FailingTargets.includingReplaced(s, now,
                rule.criticalHoldMillis(), settings.registry().newTargetAgeMillis()).size();
        boolean held = damagedAt >= 0 || failedInHold >= rule.criticalFraction() * known - 1e-9;
        Severity severity = criticalNow || held ? Severity.CRITICAL : Severity.WARNING;
        Diagnosis diagnosis = diagnostician.diagnose(s, failing, now, false);
        String summary = failing.size() + "/" + known + " targets of " + s.targetGroup + " failed health checks within "
                + Fmt.duration(failing.onsetSpread()) + " across " + zones.size() + " zone" + (zones.size() == 1 ? "" : "s")
                + " (reason " + failing.dominantReason() + ")"
                + (failing.replaced() > 0 ? ", " + failing.replaced() + " of them already replaced" : "")
                + "; diagnosis: " + diagnosis.kind().id();
        Finding.Details details = Finding.newDetails()
                .put("failing", failing.size())
                .put("registered", known)
                .put("healthy", healthy)
                .put("unknown", s.unknown() > 0 ? s.unknown() : null)
                .put("replaced", failing.replaced() > 0 ? failing.replaced() : null)
                .put("zones", String.join(",", zones.keySet()))
                .put("failing_by_zone", FailingTargets.describe(zones))
                .put("reason", failing.dominantReason())
                .put("below_minimum_healthy", belowMinimum)
                .put("critical_held_since_step", damagedAt >= 0 ? Fmt.instant(damagedAt) : null)
                .put("critical_held_failed_within_hold", damagedAt < 0 && held ? failedInHold : null)
                .put("diagnosis", diagnosis.kind().id())
                .put("diagnosis_reason", diagnosis.reason());
        diagnosis.evidence().forEach(details::put);
        details.put("targets", targetList(failing));
        return List.of(new Finding(AlertType.CORRELATED_FAILURE, AlertType.CORRELATED_FAILURE.id() + "/" + s.targetGroup,
                severity, Scope.targetGroup(s.pool.lb, s.targetGroup), summary, details.build(),
                Math.min(failing.earliestOnset(), now), now));
    }

    /**
     * Hysteresis, one half: the latest step within {@code correlated.critical-hold} at which no
     * more than 1 - critical-fraction of the known targets were healthy (-1: none). While a failure
     * goes on, the failing share hovers around the critical fraction as targets fail, are replaced
     * and fail again, and judged alone it would flip the alert between critical and warning at each
     * step; a fleet that was down to half its targets stays critical until it has been better for
     * the hold. Steps before hcwatch has heard every target (a start) do not count. The other half,
     * in judge: critical-fraction of the fleet failed within the hold, replaced targets counted.
     */
    private long lastDamaged(FleetState s, long now, FleetSettings.Correlated rule) {
        long settled = s.registry.createdAt + settings.interval(s.settings()) * settings.registry().silentIntervals();
        long from = Math.max(now - rule.criticalHoldMillis(), settled);
        return from > now ? -1 : s.history.lastAtMostHealthy(from, now, 1 - rule.criticalFraction());
    }

    /**
     * Whether the failures (replaced targets counted) are a correlated failure: enough of the fleet,
     * across zones, or with zones unknown when {@code unknownZonesQualify} (a failure that may
     * span zones pages as one). zonal_failure asks with known zones only: a zone is not failing
     * alone while failures are seen in another.
     */
    static boolean holds(FleetState s, FailingTargets failing, long now, FleetSettings.Correlated rule,
                         boolean unknownZonesQualify) {
        int known = known(s, now, rule.windowMillis());
        int needed = Math.max(rule.minTargets(), (int) Math.ceil(rule.minFraction() * known - 1e-9));
        if (known == 0 || failing.size() < needed) {
            return false;
        }
        Map<String, Integer> zones = failing.byZone();
        if (zones.containsKey("unknown")) {
            if (unknownZonesQualify) {
                return true;
            }
            int located = failing.size() - zones.remove("unknown");
            return spannedZones(zones, located) >= rule.minZones();
        }
        return spannedZones(zones, failing.size()) >= rule.minZones();
    }

    /**
     * The fleet the failures are counted against: the targets known at the window's start, so that
     * replacements launched during it (while the targets they replace linger) do not swell it, or
     * LbConfig's registered count when larger. Before a window's worth of history, those known now.
     */
    static int known(FleetState s, long now, long windowMillis) {
        int atStart = s.history.knownAt(now - windowMillis);
        return Math.max(s.registered(), atStart > 0 ? atStart : s.targets().size());
    }

    /**
     * Zones the failures span. A lone failing target never makes a pattern, so one stray failure
     * outside a zone that holds all the others does not spread a zone's failure to a second zone.
     */
    static int spannedZones(Map<String, Integer> zones, int failing) {
        int largest = zones.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return failing - largest <= 1 ? Math.min(1, zones.size()) : zones.size();
    }

    static String targetList(FailingTargets failing) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (TargetRecord t : failing.targets()) {
            if (shown++ == 20) {
                sb.append(",…");
                break;
            }
            sb.append(sb.length() > 0 ? "," : "").append(t.id);
        }
        return sb.toString();
    }
}
