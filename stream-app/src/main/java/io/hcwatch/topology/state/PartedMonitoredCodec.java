package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.alert.Monitored;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A monitored key stored in parts (layout 2): the value's tree as {@link MonitoredCodec} writes it,
 * cut by the kind's {@link StateSplit}; what is left (settings, alerts: what seldom changes) is the
 * head part {@value #HEAD}, JSON with the layout version. A key stored whole by layout 0 or 1 is
 * still read whole ({@link #decode}), and its next commit stores it in parts.
 */
public final class PartedMonitoredCodec<S> implements PartedCodec<Monitored<S>> {

    /** The layout of a key stored in parts. */
    public static final int VERSION = 2;
    static final String HEAD = "m";

    private final MonitoredCodec<S> whole;
    private final StateSplit split;

    PartedMonitoredCodec(MonitoredCodec<S> whole, StateSplit split) {
        this.whole = whole;
        this.split = split;
    }

    /** A target group in parts ({@link FleetParts}). */
    public static <S> PartedMonitoredCodec<S> fleet(MonitoredCodec<S> whole) {
        return new PartedMonitoredCodec<>(whole, new FleetParts());
    }

    /** An HAProxy host in parts ({@link HostParts}). */
    public static <S> PartedMonitoredCodec<S> host(MonitoredCodec<S> whole) {
        return new PartedMonitoredCodec<>(whole, new HostParts());
    }

    /** A client scope in parts ({@link FloodParts}). */
    public static <S> PartedMonitoredCodec<S> flood(MonitoredCodec<S> whole) {
        return new PartedMonitoredCodec<>(whole, new FloodParts());
    }

    @Override
    public byte[] encode(Monitored<S> value) {
        return whole.encode(value);
    }

    @Override
    public Monitored<S> decode(byte[] bytes) {
        return whole.decode(bytes);
    }

    @Override
    public Map<String, byte[]> encodeParts(Monitored<S> value) {
        ObjectNode tree = whole.tree(value);
        Map<String, byte[]> parts = new LinkedHashMap<>();
        split.split(tree, parts);
        ObjectNode head = MonitoredCodec.STRICT.createObjectNode().put("v", VERSION);
        head.setAll(tree);
        try {
            parts.put(HEAD, MonitoredCodec.STRICT.writeValueAsBytes(head));
        } catch (IOException e) {
            throw new UncheckedIOException("could not encode monitor state", e);
        }
        return parts;
    }

    @Override
    public Monitored<S> decodeParts(Map<String, byte[]> parts) {
        byte[] headBytes = parts.get(HEAD);
        if (headBytes == null) {
            throw new NewerLayoutException("monitor state stored in parts without a head part " + parts.keySet()
                    + ": a layout this hcwatch does not know (roll forward, or reset the application)");
        }
        ObjectNode tree;
        try {
            JsonNode head = MonitoredCodec.STRICT.readTree(headBytes);
            if (!(head instanceof ObjectNode node)) {
                throw new IllegalStateException("monitor state's head part is not a JSON object");
            }
            tree = node;
        } catch (IOException e) {
            throw new UncheckedIOException("could not decode monitor state from its changelog: " + e.getMessage(), e);
        }
        int version = tree.path("v").asInt(0);
        if (version > VERSION) {
            throw new NewerLayoutException("monitor state of layout " + version + " was written by a newer hcwatch;"
                    + " this one reads layouts up to " + VERSION + " (roll forward, or reset the application)");
        }
        tree.remove("v");
        split.join(tree, parts);
        return whole.fromTree(tree);
    }
}
