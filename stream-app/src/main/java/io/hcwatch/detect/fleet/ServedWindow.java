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

    /** Requests, 5xx and latencies in (now - window, now]. */
    public record Totals(long requests, long failed, Histogram latency) {

        static Totals empty() {
            return new Totals(0, 0, LatencySketch.create());
        }

        public Totals plus(Totals o) {
            Histogram h = LatencySketch.create();
            h.add(latency);
            h.add(o.latency);
            return new Totals(requests + o.requests, failed + o.failed, h);
        }

        /** What is left of these totals without {@code part}, which they include. */
        public Totals minus(Totals part) {
            Histogram h = latency.copy();
            h.subtract(part.latency);
            return new Totals(requests - part.requests, failed - part.failed, h);
        }

        public double failedShare() {
            return requests == 0 ? 0 : failed / (double) requests;
        }

        /** The latency at {@code percentile}, NaN when none was logged. */
        public double latencyAt(double percentile) {
            return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile);
        }
    }

    public Totals totals(String target, long now, long windowMillis) {
        Served s = byTarget.get(target);
        return s == null ? Totals.empty() : s.totals(now, windowMillis, slotMillis);
    }

    /** One target's slots. */
    public static final class Served {
        public long[] slotStart;
        public long[] requests;
        public long[] failed;
        public long lastAt;
        @JsonIgnore
        private Histogram[] latency;

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
        }

        Totals totals(long now, long windowMillis, long slotMillis) {
            long n = 0;
            long f = 0;
            Histogram h = LatencySketch.create();
            for (int i = 0; i < slotStart.length; i++) {
                // slots start on evaluation steps: at a step, the window's slots are those that started in it
                if (slotStart[i] >= now - windowMillis && slotStart[i] < now) {
                    n += requests[i];
                    f += failed[i];
                    if (latency[i] != null) {
                        h.add(latency[i]);
                    }
                }
            }
            return new Totals(n, f, h);
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
