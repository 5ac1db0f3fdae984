package io.hcwatch.topology.state;

import io.hcwatch.alert.Monitored;
import io.hcwatch.detect.fleet.FleetState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A target group's parts written straight from its live state, each by the writer of its family,
 * in the order {@link FleetParts} cuts them: the same bytes as {@link TreeParts} over
 * {@link FleetParts}, without a tree of the whole group (building it took Jackson a quarter of a
 * {@code bench fleet} thread, cutting it another seventh).
 */
final class FleetEncoder implements PartsEncoder<FleetState> {

    private final MonitoredCodec<FleetState> whole;

    FleetEncoder(MonitoredCodec<FleetState> whole) {
        this.whole = whole;
    }

    @Override
    public Map<String, byte[]> encode(Monitored<FleetState> value) {
        whole.settle(value);
        Map<String, byte[]> parts = new LinkedHashMap<>();
        FleetState state = value.state;
        ClockRows.write(value.time, state == null ? null : state.history, parts);
        if (state != null) {
            if (state.registry != null) {
                TargetRows.write(state.registry, parts);
            }
            if (state.latency != null) {
                LatencyRows.write(state.latency, parts);
            }
            TrafficRows.write(state, parts);
        }
        parts.put(StoredParts.WHOLE, PartedMonitoredCodec.FRAME);
        parts.put(PartedMonitoredCodec.HEAD, FleetHead.write(value));
        return parts;
    }
}
