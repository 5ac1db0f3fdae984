package io.hcwatch.detect.fleet;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.Finding;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Runs every target-group detector over a {@link FleetState}: applies each event, evaluates the
 * detectors on the records seen so far (so alerts fire without waiting for a window to close),
 * and at every evaluation step of event time records history, ages out silent targets and
 * lets clear conditions resolve. No Kafka types: the topology feeds it, tests call it directly.
 */
public final class FleetMonitor {

    private final Settings settings;
    private final ConfigRiskDetector configRisk;
    private final List<FleetDetector> detectors;
    private final long step;

    public FleetMonitor(Settings settings) {
        this.settings = settings;
        FleetDiagnostician diagnostician = new FleetDiagnostician(settings);
        this.configRisk = new ConfigRiskDetector(settings);
        this.detectors = List.of(
                new CorrelatedFailureDetector(settings, diagnostician),
                new ZonalFailureDetector(settings, diagnostician),
                new LatencyHeadroomDetector(settings),
                configRisk,
                new ReplacementChurnDetector(settings),
                new FailOpenDetector(settings),
                new DnsFailoverDetector(settings),
                new NoHealthyTargetsDetector(settings));
        this.step = settings.millis("eval.step");
    }

    public FleetState newState(String targetGroup) {
        return FleetState.create(targetGroup, settings);
    }

    public List<Notification> onCheck(FleetState s, HealthCheckResult r) {
        List<Notification> out = apply(s, r);
        out.addAll(evaluate(s));
        return out;
    }

    /**
     * Checks of one target group read together, in order (a batch off the repartition topic, all
     * of one second): each is applied and runs the steps it reaches, the detectors judge once after
     * the last. What held only between two checks of the same second goes unreported.
     */
    public List<Notification> onChecks(FleetState s, List<HealthCheckResult> checks) {
        List<Notification> out = new ArrayList<>();
        for (HealthCheckResult r : checks) {
            out.addAll(apply(s, r));
        }
        out.addAll(evaluate(s));
        return out;
    }

    private List<Notification> apply(FleetState s, HealthCheckResult r) {
        List<Notification> out = reach(s, r.getTs().toEpochMilli());
        CheckSettings before = s.observeCheck(r, settings);
        if (before != null) {
            configRisk.onChange(s, before, s.time.clock);
        }
        return out;
    }

    public List<Notification> onConfig(FleetState s, LbConfig c) {
        List<Notification> out = reach(s, c.getTs().toEpochMilli());
        CheckSettings before = s.observeConfig(c);
        if (before != null) {
            configRisk.onChange(s, before, s.time.clock);
        }
        out.addAll(evaluate(s));
        return out;
    }

    public List<Notification> onBackendEvent(FleetState s, BackendEvent e) {
        List<Notification> out = reach(s, e.getTs().toEpochMilli());
        s.observeBackendEvent(e);
        out.addAll(evaluate(s));
        return out;
    }

    public List<Notification> onTraffic(FleetState s, TargetTraffic t) {
        List<Notification> out = reach(s, t.getBucketStart());
        s.observeTraffic(t);
        out.addAll(evaluate(s));
        return out;
    }

    /** Time reaches {@code now} for this target group: every evaluation step up to it runs (see KeyClock). */
    public List<Notification> reach(FleetState s, long now) {
        return s.time.reach(now, step, at -> runStep(s, at));
    }

    private List<Notification> evaluate(FleetState s) {
        return s.alerts.observe(findings(s, s.time.clock), s.time.clock, settings.millis("alert.renotify"));
    }

    /** Every finding that holds at {@code now}. */
    public List<Finding> findings(FleetState s, long now) {
        List<Finding> all = new ArrayList<>();
        for (FleetDetector d : detectors) {
            all.addAll(d.evaluate(s, now));
        }
        return all;
    }

    private List<Notification> runStep(FleetState s, long at) {
        s.expireSilentTargets(at, settings);
        Histogram h = s.latency.window(at, settings.millis("headroom.window"));
        boolean enough = h.getTotalCount() >= settings.integer("headroom.min-samples");
        long[] traffic = s.traffic.totals(at, step);
        s.history.add(at, enough ? h.getValueAtPercentile(50) : Double.NaN,
                enough ? h.getValueAtPercentile(99) : Double.NaN, s.healthy(), traffic[0] * 1000.0 / step);
        return s.alerts.step(findings(s, at), at, settings.millis("alert.renotify"), settings.integer("alert.clear-steps"));
    }
}
