package io.hcwatch.topology;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.detect.flood.FloodMonitor;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.time.KeyClock;
import java.util.List;

/** Client floods: keyed by platform/scope (an HAProxy frontend over all its hosts, or an ALB). */
final class FloodAdapter implements MonitorAdapter<FloodState> {

    private final FloodMonitor monitor;

    FloodAdapter(FloodMonitor monitor) {
        this.monitor = monitor;
    }

    @Override
    public String name() {
        return "flood";
    }

    @Override
    public FloodState newState(String key, Envelope first) {
        ClientTraffic c = (ClientTraffic) first.record();
        return monitor.newState(c.getPlatform(), c.getScope());
    }

    @Override
    public List<Notification> apply(FloodState state, Envelope e) {
        if (e.kind() != Envelope.Kind.CLIENT_TRAFFIC) {
            throw new IllegalArgumentException("flood monitor cannot take " + e.kind());
        }
        return monitor.onTraffic(state, (ClientTraffic) e.record());
    }

    @Override
    public List<Notification> reach(FloodState state, long now) {
        return monitor.reach(state, now);
    }

    @Override
    public KeyClock clock(FloodState state) {
        return state.time;
    }
}
