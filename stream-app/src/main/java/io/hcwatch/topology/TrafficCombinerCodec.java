package io.hcwatch.topology;

import io.hcwatch.input.Payload;
import io.hcwatch.input.Pending;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.traffic.TrafficCombiner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Stores a combiner's pending summaries as a list of envelopes, so a restart sends them on. */
final class TrafficCombinerCodec implements StateCodec<TrafficCombiner> {

    private final EnvelopeSerde envelopes = new EnvelopeSerde();
    private final int capacity;

    TrafficCombinerCodec(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public byte[] encode(TrafficCombiner combiner) {
        List<byte[]> parts = new ArrayList<>();
        int size = 4;
        for (Pending p : combiner.snapshot()) {
            byte[] b = envelopes.serialize(null, Envelope.of(p));
            parts.add(b);
            size += 4 + b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).putInt(parts.size());
        parts.forEach(b -> buf.putInt(b.length).put(b));
        return buf.array();
    }

    @Override
    public TrafficCombiner decode(byte[] bytes) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        int n = buf.getInt();
        List<Pending> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = new byte[buf.getInt()];
            buf.get(b);
            Payload p = envelopes.deserialize(null, b).payload();
            // stored bytes can say anything: checked once here, then dispatched by kind in TrafficCombiner.restore
            if (!(p instanceof Pending held)) {
                throw new IllegalStateException("a pending store holds summaries and health checks, not " + p.getClass().getSimpleName());
            }
            pending.add(held);
        }
        TrafficCombiner combiner = new TrafficCombiner(capacity);
        combiner.restore(pending);
        return combiner;
    }
}
