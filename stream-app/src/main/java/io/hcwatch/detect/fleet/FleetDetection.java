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
import java.util.Objects;
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

    /**
     * Judged at once: a check that changed its target's membership, state, or whether it is failing
     * (a first failure, or a pass after failures: correlated_failure counts targets failed and not
     * recovered since), a config, a backend's event.
     */
    @Override
    public boolean apply(FleetState s, FleetInput record, long now) {
        return record.accept(new FleetInput.Cases<Boolean>() {
            @Override
            public Boolean check(Check check) {
                String target = check.result().getTarget();
                TargetRecord before = s.registry.targets.get(target);
                String stateBefore = before == null ? null : before.state;
                boolean failingBefore = before != null && before.consecutiveFailures > 0;
                changed(s, s.observeCheck(check.result(), settings), now);
                TargetRecord after = s.registry.targets.get(target);
                return after != before || after != null && (!Objects.equals(stateBefore, after.state)
                        || failingBefore != after.consecutiveFailures > 0);
            }

            @Override
            public Boolean config(LoadBalancerConfig config) {
                changed(s, s.observeConfig(config.config()), now);
                return true;
            }

            @Override
            public Boolean backendNotice(BackendNotice notice) {
                s.observeBackendEvent(notice.event());
                return true;
            }

            @Override
            public Boolean targetSummary(TargetSummary summary) {
                s.observeTraffic(summary, settings);
                return false;
            }

            @Override
            public Boolean unreadableCheck(UnreadableCheck check) {
                s.observeUnreadable(check.seen());
                return false;
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
