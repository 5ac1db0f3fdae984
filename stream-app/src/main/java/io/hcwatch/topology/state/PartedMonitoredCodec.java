package io.hcwatch.topology.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.alert.Monitored;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.flood.FloodState;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A monitored key stored in parts (layout 3): the value's tree as {@link MonitoredCodec} writes it,
 * cut by the kind's {@link StateSplit}; what is left (settings, alerts: what seldom changes) is the
 * head part {@value #HEAD}, JSON with the layout version. A key stored whole by layout 0 or 1 is
 * still read whole ({@link #decode}), and its next commit stores it in parts.
 *
 * <p>Why every part starts with {@link #FRAME} {@code {"v":3}} and the key itself holds it too:
 * a rollback. A release of layout 1 decodes every entry of its store as a whole key's JSON, and
 * Jackson reads the first JSON value of the bytes and ignores the rest, so each part reads to it as
 * state of a newer layout, refused alone (the store goes on) instead of bytes it cannot parse (the
 * store's step fails); and the key itself, which that release reads first, refuses the key's
 * records instead of starting it fresh (firing alerts forgotten, their resolves never sent). A
 * release of layout 2 (the same parts without the frame) refuses the key by its head's version.
 * Seven bytes a part written: measured in README, {@code bench fleet}.
 */
public final class PartedMonitoredCodec<S> implements PartedCodec<Monitored<S>> {

    /** The layout of a key stored in parts. */
    public static final int VERSION = 3;
    /** The layout that stored the same parts without their frame; still read. */
    static final int UNFRAMED = 2;
    static final String HEAD = "m";
    /** What every part but the head starts with, and what the key itself holds. */
    static final byte[] FRAME = ("{\"v\":" + VERSION + "}").getBytes(StandardCharsets.UTF_8);

    private final MonitoredCodec<S> whole;
    private final StateSplit split;
    private final PartsEncoder<S> encoder;

    PartedMonitoredCodec(MonitoredCodec<S> whole, StateSplit split, PartsEncoder<S> encoder) {
        this.whole = whole;
        this.split = split;
        this.encoder = encoder;
    }

    /** Parts cut from the value's tree by {@code split}. */
    PartedMonitoredCodec(MonitoredCodec<S> whole, StateSplit split) {
        this(whole, split, new TreeParts<>(whole, split));
    }

    /**
     * A target group in parts ({@link FleetParts}), written from the live state ({@link FleetEncoder}):
     * building the tree of the whole group and cutting it was half of a {@code bench fleet} thread.
     */
    public static PartedMonitoredCodec<FleetState> fleet(MonitoredCodec<FleetState> whole) {
        return new PartedMonitoredCodec<>(whole, new FleetParts(), new FleetEncoder(whole));
    }

    /** An HAProxy host in parts ({@link HostParts}). */
    public static <S> PartedMonitoredCodec<S> host(MonitoredCodec<S> whole) {
        return new PartedMonitoredCodec<>(whole, new HostParts());
    }

    /** A client scope in parts ({@link FloodParts}), written from the live state ({@link FloodEncoder}). */
    public static PartedMonitoredCodec<FloodState> flood(MonitoredCodec<FloodState> whole) {
        return new PartedMonitoredCodec<>(whole, new FloodParts(), new FloodEncoder(whole));
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
        return encoder.encode(value);
    }

    @Override
    public Map<String, byte[]> encodePartsForCommit(Monitored<S> value) {
        return encoder.encodeForCommit(value);
    }

    /**
     * The key from what is stored of it: its parts (which win over a value an earlier layout left
     * whole beside them), else the value whole; null when the key holds only the frame (a commit
     * that wrote it was cut short before its parts, so nothing of the value was stored).
     */
    @Override
    public Monitored<S> decodeParts(Map<String, byte[]> stored) {
        byte[] key = stored.get(StoredParts.WHOLE);
        if (key != null && stored.size() == 1) {
            return Arrays.equals(key, FRAME) ? null : decode(key);
        }
        Map<String, byte[]> parts = new LinkedHashMap<>(stored);
        parts.remove(StoredParts.WHOLE);
        byte[] headBytes = parts.remove(HEAD);
        if (headBytes == null) {
            throw new NewerLayoutException("monitor state stored in parts without a head part " + parts.keySet()
                    + ": a layout this hcwatch does not know (roll forward, or reset the application)");
        }
        ObjectNode tree = MonitoredCodec.versionedObject(headBytes, VERSION);
        if (tree.path("v").asInt(0) > UNFRAMED) {
            parts.replaceAll(PartedMonitoredCodec::unframed);
        }
        tree.remove("v");
        split.join(tree, parts);
        return whole.fromTree(tree);
    }

    private static byte[] unframed(String name, byte[] bytes) {
        if (bytes.length < FRAME.length || !Arrays.equals(bytes, 0, FRAME.length, FRAME, 0, FRAME.length)) {
            throw new IllegalStateException("monitor state's part '" + name + "' of layout " + VERSION
                    + " does not start with " + new String(FRAME, StandardCharsets.UTF_8));
        }
        return Arrays.copyOfRange(bytes, FRAME.length, bytes.length);
    }
}
