package io.hcwatch.topology;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.fleet.FleetMonitor;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.time.KeyClock;
import java.util.List;
import java.util.function.BiConsumer;

/** Target groups (and HAProxy backends): keyed by name. */
final class FleetAdapter implements MonitorAdapter<FleetState> {

    private final FleetMonitor monitor;
    private final BiConsumer<String, FleetState> onChange;

    FleetAdapter(FleetMonitor monitor, BiConsumer<String, FleetState> onChange) {
        this.monitor = monitor;
        this.onChange = onChange;
    }

    @Override
    public String name() {
        return "fleet";
    }

    @Override
    public FleetState newState(String key, Envelope first) {
        return monitor.newState(key);
    }

    @Override
    public List<Notification> apply(FleetState state, Envelope e) {
        return switch (e.kind()) {
            case HEALTH_CHECK -> monitor.onCheck(state, (HealthCheckResult) e.record());
            case HEALTH_CHECKS -> monitor.onChecks(state, checks(e));
            case BACKEND_EVENT -> monitor.onBackendEvent(state, (BackendEvent) e.record());
            case LB_CONFIG -> monitor.onConfig(state, (LbConfig) e.record());
            case TARGET_TRAFFIC -> monitor.onTraffic(state, (TargetTraffic) e.record());
            default -> throw new IllegalArgumentException("fleet monitor cannot take " + e.kind());
        };
    }

    @SuppressWarnings("unchecked")
    private static List<HealthCheckResult> checks(Envelope e) {
        return (List<HealthCheckResult>) e.record();
    }

    @Override
    public List<Notification> reach(FleetState state, long now) {
        return monitor.reach(state, now);
    }

    @Override
    public KeyClock clock(FleetState state) {
        return state.time;
    }

    @Override
    public void changed(String key, FleetState state) {
        onChange.accept(key, state);
    }
}
