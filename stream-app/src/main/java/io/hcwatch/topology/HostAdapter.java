package io.hcwatch.topology;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.detect.slots.SlotMonitor;
import io.hcwatch.time.KeyClock;
import java.util.List;
import java.util.function.BiConsumer;

/** HAProxy hosts: keyed by syslog hostname. */
final class HostAdapter implements MonitorAdapter<HostState> {

    private final SlotMonitor monitor;
    private final BiConsumer<String, HostState> onChange;

    HostAdapter(SlotMonitor monitor, BiConsumer<String, HostState> onChange) {
        this.monitor = monitor;
        this.onChange = onChange;
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public HostState newState(String key, Envelope first) {
        return monitor.newState(key);
    }

    @Override
    public List<Notification> apply(HostState state, Envelope e) {
        return switch (e.kind()) {
            case HAPROXY_TRAFFIC -> monitor.onTraffic(state, (HaproxyTraffic) e.record());
            case LB_CONFIG -> monitor.onConfig(state, (LbConfig) e.record());
            default -> throw new IllegalArgumentException("host monitor cannot take " + e.kind());
        };
    }

    @Override
    public List<Notification> reach(HostState state, long now) {
        return monitor.reach(state, now);
    }

    @Override
    public KeyClock clock(HostState state) {
        return state.time;
    }

    @Override
    public void changed(String key, HostState state) {
        onChange.accept(key, state);
    }
}
