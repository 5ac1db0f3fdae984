package io.hcwatch.detect.fleet;

import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Target groups (and HAProxy backends): takes in their health checks, backend events, LbConfig
 * and traffic summaries, keeps their registry and history at each evaluation step, and judges
 * them with every target-group detector. No Kafka types and no alerts: the monitor feeds it and
 * the lifecycle turns its findings into alerts; tests call it directly.
 */
public final class FleetDetection implements Detection<FleetState> {

    private final FleetSettings settings;
    private final List<Detector<FleetState>> detectors;
    private final int historySteps;

    public FleetDetection(FleetSettings settings) {
        this.settings = settings;
        this.historySteps = FleetState.historySteps(settings);
        FleetDiagnostician diagnostician = new FleetDiagnostician(settings);
        this.detectors = List.of(
                new CorrelatedFailureDetector(settings, diagnostician),
                new ZonalFailureDetector(settings, diagnostician),
                new LatencyHeadroomDetector(settings),
                new ConfigRiskDetector(settings),
                new ReplacementChurnDetector(settings),
                new FailOpenDetector(settings),
                new DnsFailoverDetector(settings),
                new NoHealthyTargetsDetector(settings),
                new GrayFailureDetector(settings));
    }

    public FleetSettings settings() {
        return settings;
    }

    @Override
    public FleetState newState(String targetGroup, Object first) {
        return FleetState.create(targetGroup, settings);
    }

    @Override
    public void apply(FleetState s, Object record, long now) {
        if (record instanceof HealthCheckResult r) {
            changed(s, s.observeCheck(r, settings), now);
        } else if (record instanceof LbConfig c) {
            changed(s, s.observeConfig(c), now);
        } else if (record instanceof BackendEvent e) {
            s.observeBackendEvent(e);
        } else if (record instanceof TargetTraffic t) {
            s.observeTraffic(t, settings);
        } else if (record instanceof TargetSeen seen) {
            s.observeUnreadable(seen);
        } else {
            throw new IllegalArgumentException("the fleet monitor cannot take " + record.getClass().getSimpleName());
        }
    }

    /**
     * Check settings changed at {@code now}: the change is kept with the peak p99 check latency of
     * the lookback before it, what the new timeout is judged against (config risk, diagnosis).
     */
    private void changed(FleetState s, CheckSettings before, long now) {
        if (before == null) {
            return;
        }
        double peak = s.history.peakP99(now - settings.configRisk().lookbackMillis(), now);
        Histogram current = s.latency.all.window(now, settings.headroom().windowMillis());
        if (current.getTotalCount() >= settings.headroom().minSamples()) {
            double p99 = current.getValueAtPercentile(99);
            peak = Double.isNaN(peak) ? p99 : Math.max(peak, p99);
        }
        s.check.lastChange = new CheckChange(now, before, s.check.settings.copy(), peak);
    }

    /** Ages out silent targets and records what the target group looks like at this step. */
    @Override
    public void step(FleetState s, long at) {
        long silence = settings.interval(s.check.settings) * settings.registry().silentIntervals();
        s.registry.expireSilent(at, silence, s.latency);
        s.registry.forgetDeparted(at, settings.correlated().windowMillis());
        s.latency.expire(at);
        s.traffic.expire(at);
        if (s.served != null) {
            s.served.expire(at, settings.gray().windowMillis());
        }
        Histogram h = s.latency.all.window(at, settings.headroom().windowMillis());
        boolean enough = h.getTotalCount() >= settings.headroom().minSamples();
        long[] traffic = s.traffic.totals(at, settings.stepMillis());
        s.history.add(at, enough ? h.getValueAtPercentile(50) : Double.NaN, enough ? h.getValueAtPercentile(99) : Double.NaN,
                s.healthy(), traffic[0] * 1000.0 / settings.stepMillis(), s.targets().size(), historySteps, settings.stepMillis());
    }

    @Override
    public List<Detector<FleetState>> detectors() {
        return detectors;
    }
}
