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
    /** Whether a key keeps its history chunks' hashes between commits ({@link EncodedFleet}), to skip the unchanged. */
    private final boolean cached;

    FleetEncoder(MonitoredCodec<FleetState> whole) {
        this(whole, true);
    }

    /** Uncached: every part encoded afresh at every commit (what the cached parts must always equal). */
    FleetEncoder(MonitoredCodec<FleetState> whole, boolean cached) {
        this.whole = whole;
        this.cached = cached;
    }

    @Override
    public Map<String, byte[]> encode(Monitored<FleetState> value) {
        return encode(value, new LinkedHashMap<>());
    }

    /** The parts, a history chunk whose values are as when last encoded given by its bytes' hash alone. */
    @Override
    public Map<String, byte[]> encodeForCommit(Monitored<FleetState> value) {
        return encode(value, new EncodedParts());
    }

    private Map<String, byte[]> encode(Monitored<FleetState> value, Map<String, byte[]> parts) {
        whole.settle(value);
        EncodedFleet cache = cached && value.encoded instanceof EncodedFleet kept ? kept : new EncodedFleet();
        if (cached) {
            value.encoded = cache;
        }
        FleetState state = value.state;
        ClockRows.write(value.time, state == null ? null : state.history, parts, cache);
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
