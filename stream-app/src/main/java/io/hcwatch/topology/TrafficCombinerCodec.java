package io.hcwatch.topology;

import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.input.Payload;
import io.hcwatch.input.Pending;
import io.hcwatch.input.Progress;
import io.hcwatch.input.Telemetry;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.traffic.TrafficCombiner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Stores a combiner's pending summaries as a list of envelopes, so a restart sends them on: the
 * layout's version ({@link #LAYOUT}), the count, then each envelope behind its length. Layout 0
 * (the first releases) started with the count, whose first byte is 0 for any count below 2^24
 * (a pending store holds at most thousands), and is still read. A container of a newer layout,
 * and each envelope of a newer kind or schema version, is kept as its bytes for the ingest to
 * dead-letter ({@link TrafficCombiner#takeFromNewerRelease()}): the rest comes back.
 */
final class TrafficCombinerCodec implements StateCodec<TrafficCombiner> {

    /** The layout this release writes. */
    static final int LAYOUT = 1;

    private final EnvelopeSerde envelopes = new EnvelopeSerde();
    private final int capacity;

    TrafficCombinerCodec(int capacity) {
        this.capacity = capacity;
    }

    /** What a newer release left is not written back: the ingest takes it at start, before its first commit. */
    @Override
    public byte[] encode(TrafficCombiner combiner) {
        List<byte[]> parts = new ArrayList<>();
        int size = 1 + 4;
        for (Pending p : combiner.snapshot()) {
            byte[] b = envelopes.serialize(null, Envelope.of(p));
            parts.add(b);
            size += 4 + b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).put((byte) LAYOUT).putInt(parts.size());
        parts.forEach(b -> buf.putInt(b.length).put(b));
        return buf.array();
    }

    @Override
    public TrafficCombiner decode(byte[] bytes) {
        TrafficCombiner combiner = new TrafficCombiner(capacity);
        int layout = bytes[0] & 0xff;
        if (layout > LAYOUT) {
            combiner.restoreFromNewerRelease(List.of(new FromNewerRelease(bytes, "a pending store of layout " + layout
                    + " was written by a newer hcwatch (this one reads layouts up to " + LAYOUT + ")")));
            return combiner;
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        if (layout > 0) {
            buf.get();
        }
        int n = buf.getInt();
        List<Pending> pending = new ArrayList<>(n);
        List<FromNewerRelease> newer = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[buf.getInt()];
            buf.get(b);
            envelopes.deserialize(null, b).payload().accept(new Payload.Cases<Void>() {
                @Override
                public Void telemetry(Telemetry telemetry) {
                    // stored bytes can say anything: checked once here, then dispatched by kind in TrafficCombiner.restore
                    if (!(telemetry instanceof Pending held)) {
                        throw new IllegalStateException("a pending store holds summaries and health checks, not "
                                + telemetry.getClass().getSimpleName());
                    }
                    pending.add(held);
                    return null;
                }

                @Override
                public Void progress(Progress progress) {
                    throw new IllegalStateException("a pending store holds summaries and health checks, not progress reports");
                }

                @Override
                public Void fromNewerRelease(FromNewerRelease record) {
                    newer.add(record);
                    return null;
                }
            });
        }
        combiner.restore(pending);
        combiner.restoreFromNewerRelease(newer);
        return combiner;
    }
}
