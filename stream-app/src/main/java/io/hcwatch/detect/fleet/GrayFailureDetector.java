package io.hcwatch.detect.fleet;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import io.hcwatch.detect.fleet.ServedWindow.Totals;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * gray_failure: a target, or a whole zone, whose requests fail or crawl far more than the rest
 * of its target group's over the window, while its health checks pass. The checks see nothing
 * (they probe one cheap path), the pool looks healthy, and users get errors from one place.
 *
 * <p>Each is compared with the rest of its own group, so a group that is all equally bad (an
 * overload, a shared dependency) is not gray: that is what the other alerts are for. A target
 * whose checks fail is left to them too. A zone is judged first, over its targets whose checks
 * pass, against every target outside it, and only when most of those targets are worse one by
 * one (one bad target does not make its zone gray); the targets of a gray zone are not paged
 * again one by one. Targets still warming up after registration are not judged by latency:
 * a rolling deploy's cold instances are slow by design.
 */
public final class GrayFailureDetector implements Detector<FleetState> {

    /** Fewest requests slower than the latency rule's threshold that make a p99 gray. */
    static final int MIN_SLOW = 3;

    private final FleetSettings settings;

    public GrayFailureDetector(FleetSettings settings) {
        this.settings = settings;
    }

    /** Why something is gray; both false: it is not. */
    private record Verdict(boolean errors, boolean latency) {
        boolean gray() {
            return errors || latency;
        }

        String reason() {
            return errors && latency ? "errors_and_latency" : errors ? "errors" : "latency";
        }
    }

    @Override
    public List<Finding> judge(FleetState s, long now) {
        if (s.served == null || s.served.byTarget.isEmpty()) {
            return List.of();
        }
        FleetSettings.Gray g = settings.gray();
        Map<String, Totals> byTarget = new TreeMap<>();
        for (String key : s.served.byTarget.keySet()) {
            Totals t = s.served.totals(key, now, g.windowMillis());
            if (t.requests() > 0) {
                byTarget.put(key, t);
            }
        }
        if (byTarget.size() < 2) {
            return List.of();
        }
        Totals all = Totals.sum(new ArrayList<>(byTarget.values()));
        Map<String, TargetRecord> records = new TreeMap<>();
        Map<String, List<String>> zones = new TreeMap<>();
        for (String key : byTarget.keySet()) {
            TargetRecord r = record(s, key);
            if (r != null) {
                records.put(key, r);
                if (r.zone != null) {
                    zones.computeIfAbsent(r.zone, z -> new ArrayList<>()).add(key);
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        Set<String> inGrayZone = new HashSet<>();
        if (zones.size() >= 2) {
            for (Map.Entry<String, List<String>> zone : zones.entrySet()) {
                Finding f = judgeZone(s, zone.getKey(), zone.getValue(), byTarget, all, records, now);
                if (f != null) {
                    out.add(f);
                    inGrayZone.addAll(zone.getValue());
                }
            }
        }
        for (Map.Entry<String, Totals> e : byTarget.entrySet()) {
            String key = e.getKey();
            TargetRecord r = records.get(key);
            if (inGrayZone.contains(key) || !passing(s, key, r)) {
                continue;
            }
            Totals rest = all.minus(e.getValue());
            Verdict v = compare(e.getValue(), rest, !warmingUp(r, now), true);
            if (v.gray()) {
                out.add(targetFinding(s, key, r, e.getValue(), rest, v, now));
            }
        }
        return out;
    }

    private Finding judgeZone(FleetState s, String zone, List<String> memberKeys, Map<String, Totals> byTarget, Totals all,
                              Map<String, TargetRecord> records, long now) {
        List<String> passing = memberKeys.stream().filter(k -> passing(s, k, records.get(k))).toList();
        if (passing.size() < settings.gray().minZoneTargets()) {
            return null;
        }
        Totals rest = all.minus(Totals.sum(memberKeys.stream().map(byTarget::get).toList()));
        Totals inZone = Totals.sum(passing.stream().map(byTarget::get).toList());
        Verdict v = compare(inZone, rest, true, true);
        if (!v.gray()) {
            return null;
        }
        // one bad target would carry its zone's totals: most of the zone must be worse one by one
        long worse = passing.stream().filter(k -> compare(byTarget.get(k), rest, true, false).gray()).count();
        if (worse * 2 <= passing.size()) {
            return null;
        }
        String summary = zone + " of " + s.targetGroup + " answers " + evidence(inZone, rest, v) + " over the last "
                + Fmt.duration(settings.gray().windowMillis()) + " while its " + passing.size()
                + " targets pass their health checks";
        Finding.Details d = Finding.newDetails()
                .put("zone", zone)
                .put("targets_passing_checks", passing.size())
                .put("targets_worse", worse);
        return finding(s, AlertType.GRAY_FAILURE.id() + "/" + s.targetGroup + "/" + zone, Severity.ERROR,
                Scope.targetGroup(s.pool.lb, s.targetGroup).withZone(zone), summary, details(d, inZone, rest, v), now);
    }

    private Finding targetFinding(FleetState s, String key, TargetRecord r, Totals t, Totals rest, Verdict v, long now) {
        String id = r != null ? r.id : key;
        String name = id.equals(key) ? id : id + " (" + key + ")";
        String summary = "target " + name + " of " + s.targetGroup + " answers " + evidence(t, rest, v) + " over the last "
                + Fmt.duration(settings.gray().windowMillis()) + " while its health checks pass";
        Finding.Details d = Finding.newDetails()
                .put("target", id)
                .put("address", id.equals(key) ? null : key)
                .put("zone", r == null ? null : r.zone);
        Scope scope = Scope.targetGroup(s.pool.lb, s.targetGroup).withTarget(id);
        return finding(s, AlertType.GRAY_FAILURE.id() + "/" + s.targetGroup + "/target/" + id, Severity.WARNING,
                r != null && r.zone != null ? scope.withZone(r.zone) : scope, summary, details(d, t, rest, v), now);
    }

    private Finding finding(FleetState s, String dedupKey, Severity severity, Scope scope, String summary,
                            Map<String, String> details, long now) {
        return new Finding(AlertType.GRAY_FAILURE, dedupKey, severity, scope, summary, details,
                now - settings.gray().windowMillis(), now).holdingFor(settings.gray().holdMillis());
    }

    /**
     * Whether {@code x} is far worse than {@code rest}: its 5xx share, or (when judged) its p99 or
     * p50 latency. With {@code counted}, both must have served enough requests to say so.
     */
    private Verdict compare(Totals x, Totals rest, boolean judgeLatency, boolean counted) {
        FleetSettings.Gray g = settings.gray();
        if (counted && (x.requests() < g.minRequests() || rest.requests() < g.minRequests())) {
            return new Verdict(false, false);
        }
        double share = x.failedShare();
        boolean errors = x.requests() > 0 && share >= g.minErrorShare() && share >= g.errorRatio() * rest.failedShare();
        boolean latency = false;
        long samples = x.samples();
        long restSamples = rest.samples();
        double p99 = judgeLatency && samples > 0 && restSamples > 0
                && (!counted || (samples >= g.minRequests() && restSamples >= g.minRequests())) ? x.latencyAt(99) : Double.NaN;
        // a p99 under the floor settles it before the rest's latencies are merged (NaN: not judged)
        if (p99 >= g.minP99Millis()) {
            double p50 = x.latencyAt(50);
            double slowFrom = g.latencyRatio() * rest.latencyAt(99);
            // under a few hundred requests a p99 is the slowest one or two: one stray request is not a gray target
            long slow = x.latency().getCountBetweenValues(x.latency().lowestEquivalentValue(Math.round(slowFrom)),
                    x.latency().getMaxValue());
            latency = p99 >= slowFrom && slow >= Math.max(MIN_SLOW, samples / 100) || p50 >= g.latencyRatio() * rest.latencyAt(50);
        }
        return new Verdict(errors, latency);
    }

    private static String evidence(Totals x, Totals rest, Verdict v) {
        String errors = Fmt.decimal(100 * x.failedShare(), 1) + "% 5xx (rest of the group " + Fmt.decimal(100 * rest.failedShare(), 1)
                + "%)";
        String latency = "p99 " + Fmt.ms(x.latencyAt(99)) + " (rest " + Fmt.ms(rest.latencyAt(99)) + ")";
        if (v.errors() && v.latency()) {
            return errors + " and " + latency;
        }
        return v.errors() ? errors : latency;
    }

    private static Map<String, String> details(Finding.Details d, Totals x, Totals rest, Verdict v) {
        return d.put("reason", v.reason())
                .put("requests", x.requests())
                .put("5xx_share", Fmt.decimal(100 * x.failedShare(), 1) + "%")
                .put("p50_ms", latency(x, 50))
                .put("p99_ms", latency(x, 99))
                .put("rest_requests", rest.requests())
                .put("rest_5xx_share", Fmt.decimal(100 * rest.failedShare(), 1) + "%")
                .put("rest_p50_ms", latency(rest, 50))
                .put("rest_p99_ms", latency(rest, 99))
                .put("checks", "passing")
                .build();
    }

    private static Long latency(Totals t, double percentile) {
        double v = t.latencyAt(percentile);
        return Double.isNaN(v) ? null : Math.round(v);
    }

    /** The target an access log names: by ip:port (ALB) or by its name (an HAProxy server). */
    private static TargetRecord record(FleetState s, String key) {
        TargetRecord r = s.registry.byAddress(key);
        return r != null ? r : s.targets().get(key);
    }

    /**
     * Whether its health checks pass: healthy, with its last check passed. An HAProxy server
     * hcwatch has no check of is taken as UP: HAProxy logs a server's checks only when its state
     * changes. An ALB target hcwatch does not know says nothing.
     */
    private static boolean passing(FleetState s, String key, TargetRecord r) {
        if (r == null) {
            return key.indexOf(':') < 0 && !s.isAlb();
        }
        return r.isHealthy() && !r.lastCheckFailed();
    }

    /** Registered (or first seen initial) less than the warm-up ago: slow by design, not gray. */
    private boolean warmingUp(TargetRecord r, long now) {
        if (r == null) {
            return false;
        }
        long since = r.registeredAt != null ? r.registeredAt : r.sawInitial ? r.firstSeen : Long.MIN_VALUE;
        return since != Long.MIN_VALUE && now - since < settings.gray().warmupMillis();
    }
}
