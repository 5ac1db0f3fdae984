package io.hcwatch.detect.fleet;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.EvaluationSteps;
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
    private final long grace;
    private final long maxUpstreamLag;

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
        this.grace = settings.millis("window.grace");
        this.maxUpstreamLag = settings.millis("window.max-upstream-lag");
    }

    public FleetState newState(String targetGroup) {
        return FleetState.create(targetGroup, settings);
    }

    /** Older than the state's clock minus the grace period: too late to count. */
    public boolean isLate(FleetState s, long eventTime) {
        return s.clock > 0 && eventTime < s.clock - grace;
    }

    public List<Notification> onCheck(FleetState s, HealthCheckResult r) {
        return onCheck(s, r, null);
    }

    /** @param upstream the input partition the check came through, or null when unknown */
    public List<Notification> onCheck(FleetState s, HealthCheckResult r, String upstream) {
        List<Notification> out = apply(s, r, upstream);
        out.addAll(evaluate(s));
        return out;
    }

    /**
     * Checks of one target group read together, in order (a batch off the repartition topic, all
     * of one second): each is applied and runs the steps it reaches, the detectors judge once after
     * the last. What held only between two checks of the same second goes unreported.
     */
    public List<Notification> onChecks(FleetState s, List<HealthCheckResult> checks, String upstream) {
        List<Notification> out = new ArrayList<>();
        for (HealthCheckResult r : checks) {
            out.addAll(apply(s, r, upstream));
        }
        out.addAll(evaluate(s));
        return out;
    }

    private List<Notification> apply(FleetState s, HealthCheckResult r, String upstream) {
        long ts = r.getTs().toEpochMilli();
        s.noteUpstream(upstream, ts);
        List<Notification> out = advanceTo(s, stepsUntil(s, ts));
        CheckSettings before = s.observeCheck(r, settings, upstream);
        if (before != null) {
            configRisk.onChange(s, before, s.clock);
        }
        return out;
    }

    public List<Notification> onConfig(FleetState s, LbConfig c) {
        List<Notification> out = advanceTo(s, stepsUntil(s, c.getTs().toEpochMilli()));
        CheckSettings before = s.observeConfig(c);
        if (before != null) {
            configRisk.onChange(s, before, s.clock);
        }
        out.addAll(evaluate(s));
        return out;
    }

    public List<Notification> onBackendEvent(FleetState s, BackendEvent e) {
        List<Notification> out = advanceTo(s, stepsUntil(s, e.getTs().toEpochMilli()));
        s.observeBackendEvent(e);
        out.addAll(evaluate(s));
        return out;
    }

    public List<Notification> onTraffic(FleetState s, TargetTraffic t) {
        List<Notification> out = advanceTo(s, stepsUntil(s, t.getBucketStart()));
        s.observeTraffic(t);
        out.addAll(evaluate(s));
        return out;
    }

    /** No input at all for a while (the wall clock moved on): time passes and every step runs. */
    public List<Notification> onTime(FleetState s, long now) {
        return timePasses(s, now, now);
    }

    /**
     * Stream time moved on through other target groups' records, so input is flowing: time passes
     * for this one too, but its steps still wait for its own partitions that lag (see stepClock).
     */
    public List<Notification> onStreamTime(FleetState s, long now) {
        return timePasses(s, now, s.stepClock(now, maxUpstreamLag));
    }

    /** Time reached {@code now} with no record for this target group; steps run up to {@code until}. */
    private List<Notification> timePasses(FleetState s, long now, long until) {
        if (s.clock == 0 || now <= s.clock) {
            return List.of();
        }
        List<Notification> out = advanceTo(s, until);
        s.clock = Math.max(s.clock, until);
        return out;
    }

    private List<Notification> evaluate(FleetState s) {
        return s.alerts.observe(findings(s, s.clock), s.clock, settings.millis("alert.renotify"));
    }

    /** Every finding that holds at {@code now}. */
    public List<Finding> findings(FleetState s, long now) {
        List<Finding> all = new ArrayList<>();
        for (FleetDetector d : detectors) {
            all.addAll(d.evaluate(s, now));
        }
        return all;
    }

    /** A record at {@code ts} lets steps run up to it, but not past a health-check partition that lags. */
    private long stepsUntil(FleetState s, long ts) {
        return Math.min(ts, s.stepClock(Math.max(s.clock, ts), maxUpstreamLag));
    }

    /** Runs the evaluation steps that fall in (lastStep, until]. */
    private List<Notification> advanceTo(FleetState s, long until) {
        List<Notification> out = new ArrayList<>();
        if (s.lastStep == 0) {
            s.lastStep = EvaluationSteps.floor(Math.max(s.clock, until), step);
            return out;
        }
        for (long at : EvaluationSteps.due(s.lastStep, until, step)) {
            out.addAll(runStep(s, at));
        }
        return out;
    }

    private List<Notification> runStep(FleetState s, long at) {
        s.lastStep = at;
        s.expireSilentTargets(at, settings);
        Histogram h = s.latency.window(at, settings.millis("headroom.window"));
        boolean enough = h.getTotalCount() >= settings.integer("headroom.min-samples");
        long[] traffic = s.traffic.totals(at, step);
        s.history.add(at, enough ? h.getValueAtPercentile(50) : Double.NaN,
                enough ? h.getValueAtPercentile(99) : Double.NaN, s.healthy(), traffic[0] * 1000.0 / step);
        return s.alerts.step(findings(s, at), at, settings.millis("alert.renotify"), settings.integer("alert.clear-steps"));
    }
}
