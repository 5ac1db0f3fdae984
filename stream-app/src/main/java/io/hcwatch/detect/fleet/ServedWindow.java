package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.hcwatch.detect.SparseMaps;
import io.hcwatch.traffic.LatencySketch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * What each target of a target group served over a short sliding window, from its access logs:
 * requests, 5xx and a latency sketch per slot. Only targets that served a request in the window
 * are kept, each in a few fixed slots: memory follows the targets that sent traffic, not the
 * request rate (gray_failure compares each target, and each zone, with the rest of its group).
 */
public final class ServedWindow {

    public long slotMillis;
    public int slots;
    /** The shared empty map while no target has served a request in the window ({@link SparseMaps}). */
    public Map<String, Served> byTarget = SparseMaps.none();

    public ServedWindow() {
    }

    public ServedWindow(long windowMillis, long slotMillis) {
        this.slotMillis = slotMillis;
        this.slots = (int) Math.max(1, (windowMillis + slotMillis - 1) / slotMillis) + 1;
    }

    /** One target's one-second count (5xx = requests - succeeded) and its latency sketch (may be null). */
    void add(String target, long ts, long requests, long succeeded, Histogram latency) {
        byTarget = SparseMaps.writable(byTarget);
        byTarget.computeIfAbsent(target, k -> new Served(slots)).add(ts, slotMillis, requests, requests - succeeded, latency);
    }

    /** Forgets targets that served nothing in the window ending at {@code now}. */
    void expire(long now, long windowMillis) {
        if (byTarget.isEmpty()) {
            return;
        }
        for (Iterator<Served> it = byTarget.values().iterator(); it.hasNext(); ) {
            if (it.next().lastAt <= now - windowMillis) {
                it.remove();
            }
        }
        byTarget = SparseMaps.compact(byTarget);
    }

    /**
     * Requests, 5xx and latencies in (now - window, now]. The latency histogram is merged only when
     * a latency is asked for: gray_failure judges every target of a group on every summary, and
     * most judgements settle on the counts and on the target's own p99.
     */
    public static final class Totals {

        private static final Totals EMPTY = new Totals(0, 0, LatencySketch.create());

        private final long requests;
        private final long failed;
        private final long samples;
        private Supplier<Histogram> merge;
        private Histogram latency;
        /** The p50 and p99 once asked (NaN: not yet): gray_failure asks for them on every judgement, and a target's window often stays as it was. */
        private double p50 = Double.NaN;
        private double p99 = Double.NaN;

        /** @param latency held as it is, not copied: not to be modified */
        Totals(long requests, long failed, Histogram latency) {
            this(requests, failed, latency.getTotalCount(), null);
            this.latency = latency;
        }

        private Totals(long requests, long failed, long samples, Supplier<Histogram> merge) {
            this.requests = requests;
            this.failed = failed;
            this.samples = samples;
            this.merge = merge;
        }

        static Totals empty() {
            return EMPTY;
        }

        /** The sum of {@code parts} (at least one). */
        public static Totals sum(List<Totals> parts) {
            if (parts.size() == 1) {
                return parts.get(0);
            }
            long n = 0;
            long f = 0;
            long k = 0;
            for (Totals t : parts) {
                n += t.requests;
                f += t.failed;
                k += t.samples;
            }
            List<Totals> held = List.copyOf(parts);
            return new Totals(n, f, k, () -> {
                Histogram h = LatencySketch.create();
                held.forEach(t -> h.add(t.latency()));
                return h;
            });
        }

        /** What is left of these totals without {@code part}, which they include. */
        public Totals minus(Totals part) {
            return new Totals(requests - part.requests, failed - part.failed, samples - part.samples, () -> {
                Histogram h = latency().copy();
                h.subtract(part.latency());
                return h;
            });
        }

        public long requests() {
            return requests;
        }

        public long failed() {
            return failed;
        }

        /** Latencies logged: the histogram's count, known without merging it. */
        public long samples() {
            return samples;
        }

        /** Not to be modified. */
        public Histogram latency() {
            if (latency == null) {
                latency = merge.get();
                merge = null;
            }
            return latency;
        }

        public double failedShare() {
            return requests == 0 ? 0 : failed / (double) requests;
        }

        /** The latency at {@code percentile}, NaN when none was logged. */
        public double latencyAt(double percentile) {
            if (samples == 0) {
                return Double.NaN;
            }
            if (percentile == 99) {
                p99 = Double.isNaN(p99) ? latency().getValueAtPercentile(99) : p99;
                return p99;
            }
            if (percentile == 50) {
                p50 = Double.isNaN(p50) ? latency().getValueAtPercentile(50) : p50;
                return p50;
            }
            return latency().getValueAtPercentile(percentile);
        }
    }

    /** The returned totals hold the target's window as kept between calls: read them before the next {@link #add}. */
    public Totals totals(String target, long now, long windowMillis) {
        Served s = byTarget.get(target);
        return s == null ? Totals.empty() : s.totals(now, windowMillis);
    }

    /** One target's slots. */
    public static final class Served {
        public long[] slotStart;
        public long[] requests;
        public long[] failed;
        public long lastAt;
        @JsonIgnore
        private Histogram[] latency;
        /** The last window handed out, and which slot (by start) each index gave it (MIN_VALUE: none). */
        @JsonIgnore
        private Totals window;
        @JsonIgnore
        private long[] windowStarts;

        public Served() {
        }

        Served(int slots) {
            slotStart = new long[slots];
            java.util.Arrays.fill(slotStart, Long.MIN_VALUE);
            requests = new long[slots];
            failed = new long[slots];
            latency = new Histogram[slots];
        }

        void add(long ts, long slotMillis, long n, long fivexx, Histogram sketch) {
            long start = Math.floorDiv(ts, slotMillis) * slotMillis;
            int i = (int) Math.floorMod(Math.floorDiv(ts, slotMillis), slotStart.length);
            if (slotStart[i] != start) {
                if (slotStart[i] > start) {
                    return;
                }
                slotStart[i] = start;
                requests[i] = 0;
                failed[i] = 0;
                latency[i] = null;
            }
            requests[i] += n;
            failed[i] += fivexx;
            latency[i] = LatencySketch.merge(latency[i], sketch);
            lastAt = Math.max(lastAt, ts);
            if (window != null && windowStarts[i] == start) {
                Histogram h = LatencySketch.merge(window.latency(), sketch);
                window = new Totals(window.requests() + n, window.failed() + fivexx, h);
            }
        }

        /**
         * The slots in the window at {@code now}. The sum is kept, with which slot (by start) each
         * index gave it, and reused while the window covers the same slots; a count added to one of
         * them is folded in. Between two evaluation steps every summary is judged against the same
         * slots, so each is merged once per step instead of once per summary.
         */
        Totals totals(long now, long windowMillis) {
            if (window == null || !sameSlots(now, windowMillis)) {
                long[] starts = new long[slotStart.length];
                long n = 0;
                long f = 0;
                Histogram h = LatencySketch.create();
                for (int i = 0; i < slotStart.length; i++) {
                    starts[i] = Long.MIN_VALUE;
                    if (included(i, now, windowMillis)) {
                        starts[i] = slotStart[i];
                        n += requests[i];
                        f += failed[i];
                        if (latency[i] != null) {
                            h.add(latency[i]);
                        }
                    }
                }
                window = new Totals(n, f, h);
                windowStarts = starts;
            }
            return window;
        }

        /** Slots start on evaluation steps: at a step, the window's slots are those that started in it. */
        private boolean included(int i, long now, long windowMillis) {
            return slotStart[i] >= now - windowMillis && slotStart[i] < now;
        }

        private boolean sameSlots(long now, long windowMillis) {
            for (int i = 0; i < slotStart.length; i++) {
                if (windowStarts[i] != (included(i, now, windowMillis) ? slotStart[i] : Long.MIN_VALUE)) {
                    return false;
                }
            }
            return true;
        }

        @JsonProperty("latency")
        List<String> encodedLatency() {
            List<String> out = new ArrayList<>(latency.length);
            for (Histogram h : latency) {
                ByteBuffer b = h == null ? null : LatencySketch.encode(h);
                out.add(b == null || !b.hasRemaining() ? null : Base64.getEncoder().encodeToString(
                        java.util.Arrays.copyOfRange(b.array(), b.position(), b.limit())));
            }
            return out;
        }

        @JsonProperty("latency")
        void decodeLatency(List<String> encoded) {
            latency = new Histogram[encoded.size()];
            for (int i = 0; i < latency.length; i++) {
                String s = encoded.get(i);
                latency[i] = s == null ? null : LatencySketch.decode(ByteBuffer.wrap(Base64.getDecoder().decode(s)));
            }
        }
    }
}
