package io.hcwatch.traffic;

import io.hcwatch.input.TargetSummary;
import java.nio.ByteBuffer;
import org.HdrHistogram.Histogram;

/**
 * Request latencies of one target as an HdrHistogram, the same sketch the check latencies use,
 * at one significant digit and resizing itself to the largest value recorded: a target that
 * answers within 100 ms costs a few hundred bytes, one that stalls for seconds a little more,
 * whatever its request rate. One digit (buckets ~6% wide) is plenty to tell a p99 three times
 * the rest of its group's.
 */
public final class LatencySketch {

    static final int DIGITS = 1;
    static final long HIGHEST_MS = 600_000;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private LatencySketch() {
    }

    public static Histogram create() {
        return new Histogram(DIGITS);
    }

    public static void record(Histogram h, double ms) {
        h.recordValue(Math.max(0, Math.min(HIGHEST_MS, Math.round(ms))));
    }

    /** The sketch as TargetCount carries it; empty when nothing was recorded. */
    public static ByteBuffer encode(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return EMPTY.duplicate();
        }
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoByteBuffer(buf);
        return ByteBuffer.wrap(java.util.Arrays.copyOf(buf.array(), n));
    }

    /** A sketch read back from {@link #encode}; null when the buffer is empty. */
    public static Histogram decode(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return null;
        }
        Histogram h = Histogram.decodeFromByteBuffer(bytes.duplicate(), 0);
        h.setAutoResize(true);
        return h;
    }

    /** {@code target}'s sketch in {@code summary} (null when it logged none): the live one if the summary was made in this process. */
    public static Histogram of(TargetSummary summary, String target) {
        return summary.live() != null ? summary.live().of(target) : decode(summary.traffic().getByTarget().get(target).getLatency());
    }

    /** Adds {@code from} to {@code into}, creating it when null; returns it. */
    public static Histogram merge(Histogram into, Histogram from) {
        if (from == null || from.getTotalCount() == 0) {
            return into;
        }
        Histogram h = into == null ? create() : into;
        h.add(from);
        return h;
    }
}
