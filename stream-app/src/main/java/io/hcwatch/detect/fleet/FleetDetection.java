package io.hcwatch.detect.fleet;

import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.UnreadableCheck;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Target groups (and HAProxy backends): takes in their health checks, backend events, LbConfig
 * and traffic summaries, keeps their registry and history at each evaluation step, and judges
 * them with every target-group detector. No Kafka types and no alerts: the monitor feeds it and
 * the lifecycle turns its findings into alerts; tests call it directly.
 */
public final class FleetDetection implements Detection<FleetState, FleetInput> {

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
    public FleetState newState(String targetGroup, FleetInput first) {
        return FleetState.create(targetGroup, settings);
    }

    @Override
    public void apply(FleetState s, FleetInput record, long now) {
        record.accept(new FleetInput.Cases<Void>() {
            @Override
            public Void check(Check check) {
                changed(s, s.observeCheck(check.result(), settings), now);
                return null;
            }

            @Override
            public Void config(LoadBalancerConfig config) {
                changed(s, s.observeConfig(config.config()), now);
                return null;
            }

            @Override
            public Void backendNotice(BackendNotice notice) {
                s.observeBackendEvent(notice.event());
                return null;
            }

            @Override
            public Void targetSummary(TargetSummary summary) {
                s.observeTraffic(summary, settings);
                return null;
            }

            @Override
            public Void unreadableCheck(UnreadableCheck check) {
                s.observeUnreadable(check.seen());
                return null;
            }
        });
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
        s.expireSilent(at, silence);
        // correlated_failure's severity looks back over its critical hold at the failures replaced since
        s.registry.forgetDeparted(at, settings.correlated().windowMillis(), settings.correlated().criticalHoldMillis());
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
