package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.alert.Monitored;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parts cut from the value's whole tree by its kind's {@link StateSplit}, the mirror of how they
 * are read ({@link StateSplit#join}): what is left of the tree is the head. The reference for an
 * encoder that writes parts from the live objects ({@link FleetEncoder}, {@link FloodEncoder}), and the encoder of the
 * kinds that have none (an HAProxy host).
 */
final class TreeParts<S> implements PartsEncoder<S> {

    private final MonitoredCodec<S> whole;
    private final StateSplit split;

    TreeParts(MonitoredCodec<S> whole, StateSplit split) {
        this.whole = whole;
        this.split = split;
    }

    @Override
    public Map<String, byte[]> encode(Monitored<S> value) {
        ObjectNode tree = whole.tree(value);
        Map<String, byte[]> parts = new LinkedHashMap<>();
        split.split(tree, parts);
        parts.replaceAll((name, bytes) -> framed(bytes));
        parts.put(StoredParts.WHOLE, PartedMonitoredCodec.FRAME);
        ObjectNode head = MonitoredCodec.STRICT.createObjectNode().put("v", PartedMonitoredCodec.VERSION);
        head.setAll(tree);
        try {
            parts.put(PartedMonitoredCodec.HEAD, MonitoredCodec.STRICT.writeValueAsBytes(head));
        } catch (IOException e) {
            throw new UncheckedIOException("could not encode monitor state", e);
        }
        return parts;
    }

    private static byte[] framed(byte[] bytes) {
        byte[] frame = PartedMonitoredCodec.FRAME;
        byte[] out = Arrays.copyOf(frame, frame.length + bytes.length);
        System.arraycopy(bytes, 0, out, frame.length, bytes.length);
        return out;
    }
}
