package io.hcwatch.topology.state;

import io.hcwatch.detect.fleet.StepHistory;
import io.hcwatch.time.KeyClock;
import java.util.Arrays;
import java.util.Map;

/**
 * A target group's clock ({@code c}) and step history's chunks ({@code h/N}) written from the live
 * objects: the bytes {@link ClockParts} cuts from the value's tree, chunks first, as it puts them.
 */
final class ClockRows {

    /** The clock's fields are columns of {@code c}: one more would be lost here, where the tree's rows refuse it. */
    private static final BeanJson CLOCK_FIELDS = BeanJson.of(KeyClock.class).expect("clock", "lastStep", "lastInput");

    private ClockRows() {
    }

    /**
     * The parts; into {@link EncodedParts} (a commit's), a chunk whose values hash as they did when
     * {@code cache} last saw it encoded comes by its bytes' hash alone.
     */
    static void write(KeyClock time, StepHistory history, Map<String, byte[]> parts, EncodedFleet cache) {
        int ring = history == null || !hasArrays(history) ? -1 : writeChunks(history, parts, cache);
        RowWriter c = new RowWriter(PartedMonitoredCodec.FRAME);
        c.varint(1);
        c.row(ClockParts.CLOCK.length);
        if (time != null) {
            c.integer(0, time.clock);
            c.integer(1, time.lastStep);
            c.integer(2, time.lastInput);
        }
        if (history != null) {
            c.integer(3, history.next);
            c.integer(4, history.size);
            if (ring >= 0) {
                c.integer(5, ring);
            }
        }
        parts.put("c", c.bytes());
    }

    /** Whether the history holds any of its arrays: else it has no ring, and no chunks. */
    static boolean hasArrays(StepHistory h) {
        return h.at != null || h.p50 != null || h.p99 != null || h.healthy != null || h.requestRate != null || h.known != null;
    }

    /** The ring's length: its longest array. */
    private static int writeChunks(StepHistory h, Map<String, byte[]> parts, EncodedFleet cache) {
        int ring = Math.max(Math.max(ArrayCells.length(h.at), Math.max(ArrayCells.length(h.p50), ArrayCells.length(h.p99))),
                Math.max(ArrayCells.length(h.healthy), Math.max(ArrayCells.length(h.requestRate), ArrayCells.length(h.known))));
        for (int from = 0; from < ring; from += ClockParts.HISTORY_CHUNK) {
            int to = Math.min(ring, from + ClockParts.HISTORY_CHUNK);
            int n = from / ClockParts.HISTORY_CHUNK;
            String name = chunkName(n);
            long values = ChunkHash.of(h, from, to);
            long known = cache.chunkBytes(n, values);
            if (known != 0 && parts instanceof EncodedParts commit) {
                commit.unchanged(name, known);
                continue;
            }
            RowWriter out = new RowWriter(PartedMonitoredCodec.FRAME);
            out.varint(to - from);
            for (int i = from; i < to; i++) {
                out.row(ClockParts.HISTORY.length);
                ArrayCells.longAt(out, 0, h.at, i);
                ArrayCells.floatAt(out, 1, h.p50, i);
                ArrayCells.floatAt(out, 2, h.p99, i);
                ArrayCells.intAt(out, 3, h.healthy, i);
                ArrayCells.floatAt(out, 4, h.requestRate, i);
                ArrayCells.intAt(out, 5, h.known, i);
            }
            byte[] bytes = out.bytes();
            parts.put(name, bytes);
            cache.chunk(n, values, PartHash.of(bytes));
        }
        return ring;
    }

    private static final String[] CHUNK_NAMES = new String[2_048];

    static {
        Arrays.setAll(CHUNK_NAMES, n -> "h/" + n);
    }

    /** {@code h/N}: named once, not at every commit. */
    private static String chunkName(int n) {
        return n < CHUNK_NAMES.length ? CHUNK_NAMES[n] : "h/" + n;
    }
}
