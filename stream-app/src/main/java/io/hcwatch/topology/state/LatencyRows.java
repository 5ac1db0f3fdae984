package io.hcwatch.topology.state;

import io.hcwatch.detect.fleet.Latencies;
import io.hcwatch.detect.fleet.SlidingHistogram;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A target group's latency windows' slots ({@code l/N}) written from the live histograms: the bytes
 * {@link LatencyParts} cuts from the value's tree. A slot index has a part when a window has
 * anything there (a start, or a histogram).
 */
final class LatencyRows {

    /** A histogram's slots as stored: encoded once per commit, only the changed slot anew (the histogram caches the rest). */
    private static final Function<Object, Object> SLOTS = BeanJson.of(SlidingHistogram.class).reader("slots");

    private LatencyRows() {
    }

    static void write(Latencies latency, Map<String, byte[]> parts) {
        SlidingHistogram[] windows = {latency.all, latency.failing, latency.passing};
        long[][] starts = new long[windows.length][];
        String[][] slots = new String[windows.length][];
        int n = 0;
        for (int w = 0; w < windows.length; w++) {
            if (windows[w] != null) {
                starts[w] = windows[w].slotStart == null ? new long[0] : windows[w].slotStart;
                slots[w] = slots(windows[w]);
                n = Math.max(n, starts[w].length);
            }
        }
        for (int i = 0; i < n; i++) {
            RowWriter row = null;
            for (int w = 0; w < windows.length; w++) {
                if (starts[w] == null || i >= starts[w].length) {
                    continue;
                }
                String slot = i < slots[w].length ? slots[w][i] : null;
                if (starts[w][i] != Long.MIN_VALUE || slot != null) {
                    if (row == null) {
                        row = new RowWriter(PartedMonitoredCodec.FRAME);
                        row.varint(1);
                        row.row(LatencyParts.SLOTS.length);
                    }
                    row.integer(2 * w, starts[w][i]);
                    if (slot == null) {
                        row.nullValue(2 * w + 1);
                    } else {
                        row.text(2 * w + 1, slot);
                    }
                }
            }
            if (row != null) {
                parts.put("l/" + i, row.bytes());
            }
        }
    }

    /** The histogram's slots, a read of {@link SlidingHistogram}'s stored form. */
    static String[] slots(SlidingHistogram h) {
        @SuppressWarnings("unchecked")
        List<String> slots = (List<String>) SLOTS.apply(h);
        return slots == null ? new String[0] : slots.toArray(new String[0]);
    }
}
