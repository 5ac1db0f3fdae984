package io.hcwatch.detect.fleet;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.UnreadableCheck;
import java.util.List;

/** The fleet monitor for one target group at a time, fed record by record as the topology feeds it. */
final class FleetHarness extends MonitorHarness<FleetState, FleetInput> {

    FleetHarness(Settings settings) {
        super(new FleetDetection(FleetSettings.from(settings)), settings);
    }

    Monitored<FleetState> newState(String targetGroup) {
        return newKey(targetGroup, null);
    }

    List<Notification> onCheck(Monitored<FleetState> m, HealthCheckResult r) {
        return feed(m, new Check(r), r.getTs().toEpochMilli());
    }

    List<Notification> onChecks(Monitored<FleetState> m, List<HealthCheckResult> checks) {
        return feedAll(m, checks.stream().map(Check::new).toList(), checks.stream().mapToLong(c -> c.getTs().toEpochMilli()).toArray());
    }

    List<Notification> onConfig(Monitored<FleetState> m, LbConfig c) {
        return feed(m, new LoadBalancerConfig(c), c.getTs().toEpochMilli());
    }

    List<Notification> onBackendEvent(Monitored<FleetState> m, BackendEvent e) {
        return feed(m, new BackendNotice(e), e.getTs().toEpochMilli());
    }

    List<Notification> onUnreadable(Monitored<FleetState> m, io.hcwatch.avro.internal.TargetSeen seen) {
        return feed(m, new UnreadableCheck(seen), seen.getTs());
    }

    List<Notification> onTraffic(Monitored<FleetState> m, TargetTraffic t) {
        return feed(m, new TargetSummary(t), t.getBucketStart());
    }
}
