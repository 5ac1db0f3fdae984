package io.hcwatch.topology.state;

import io.hcwatch.alert.Monitored;
import io.hcwatch.detect.flood.FloodState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A client scope's parts written from its live state: each second of its window as Jackson writes
 * it ({@code s/<start>}), then the head with the seconds' part names in their place: the bytes
 * {@link FloodParts} cuts from the value's tree, without the tree of a minute of client sketches
 * (a tenth of a {@code bench fleet} thread for its two scopes).
 */
final class FloodEncoder implements PartsEncoder<FloodState> {

    private static final BeanJson STATE = BeanJson.of(FloodState.class);

    private final MonitoredCodec<FloodState> whole;

    FloodEncoder(MonitoredCodec<FloodState> whole) {
        this.whole = whole;
    }

    @Override
    public Map<String, byte[]> encode(Monitored<FloodState> value) {
        whole.settle(value);
        Map<String, byte[]> parts = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        if (value.state != null && value.state.seconds != null) {
            for (FloodState.Second second : value.state.seconds) {
                String name = FloodParts.secondPart(second == null ? 0 : second.start, parts);
                names.add(name);
                parts.put(name, JsonBytes.value(PartedMonitoredCodec.FRAME, second));
            }
        }
        BeanJson state = STATE.instead("seconds", (seconds, g, p) -> {
            g.writeStartArray();
            for (String name : names) {
                g.writeString(name);
            }
            g.writeEndArray();
        });
        parts.put(StoredParts.WHOLE, PartedMonitoredCodec.FRAME);
        parts.put(PartedMonitoredCodec.HEAD, HeadJson.write(HeadJson.of(state), value));
        return parts;
    }
}
