package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Latency samples over a sliding event-time window, in fixed slots: memory is bounded by the slot
 * count whatever the sample rate, and quantiles stay within 1%.
 *
 * <p>Sized by what was recorded, not by what could be: a slot keeps its first samples as plain
 * values and becomes an HdrHistogram only past {@link #RAW_LIMIT}; histograms start small and
 * grow with the largest value (same buckets as a full-range one, so the same quantiles); slots
 * that leave the window are dropped ({@link #expire}). A target group checked by a handful of
 * targets holds a few hundred bytes here instead of a full-range histogram per slot. A histogram
 * that holds nothing (never recorded, or every slot expired) keeps no slot arrays at all: most
 * target groups never see a failing check, and an idle one sees none.
 */
public final class SlidingHistogram {

    static final long HIGHEST_MS = 600_000;
    static final int DIGITS = 2;
    /** Samples a slot keeps as plain values before it becomes a histogram (4 bytes each against 2 KB and up). */
    static final int RAW_LIMIT = 128;

    /** The window of a key that recorded nothing in it: one for all, as callers never modify a window. */
    private static final Histogram EMPTY = newHistogram();

    public long slotMillis;
    /**
     * Each slot's start. While nothing is held ({@code slots} null) this is a shared array of empty
     * starts, never written: it still gives the slot count, and is stored as it always was.
     */
    public long[] slotStart;
    @JsonIgnore
    private Histogram[] slots;
    /** Samples of a slot that is not (yet) a histogram, and how many: a slot is one or the other. */
    @JsonIgnore
    private int[][] raw;
    @JsonIgnore
    private int[] rawCount;
    /** The last window handed out, and which slot (by start) each index contributed to it (MIN_VALUE: none). */
    @JsonIgnore
    private Histogram merged;
    @JsonIgnore
    private long[] mergedStarts;
    /** Each slot's stored form, kept until the slot changes: a commit then re-encodes only the live slot. */
    @JsonIgnore
    private String[] encoded;

    public SlidingHistogram() {
    }

    public SlidingHistogram(long windowMillis, int slotCount) {
        this.slotMillis = Math.max(1, windowMillis / slotCount);
        this.slotStart = noStarts(slotCount + 1);
    }

    /** All-empty starts by slot count, shared by every histogram holding nothing (filled once, before any thread reads them). */
    private static final long[][] NO_STARTS = new long[32][];

    static {
        for (int n = 1; n < NO_STARTS.length; n++) {
            NO_STARTS[n] = new long[n];
            Arrays.fill(NO_STARTS[n], Long.MIN_VALUE);
        }
    }

    /** The shared all-empty starts of {@code ring} slots (a fresh array for unusually many slots). */
    private static long[] noStarts(int ring) {
        if (ring > 0 && ring < NO_STARTS.length) {
            return NO_STARTS[ring];
        }
        long[] starts = new long[ring];
        Arrays.fill(starts, Long.MIN_VALUE);
        return starts;
    }

    private void allocate() {
        slotStart = new long[slotStart.length];
        Arrays.fill(slotStart, Long.MIN_VALUE);
        slots = new Histogram[slotStart.length];
    }

    /** Drops every slot array and cache: the histogram holds nothing until its next sample. */
    private void release() {
        slotStart = noStarts(slotStart.length);
        slots = null;
        raw = null;
        rawCount = null;
        merged = null;
        mergedStarts = null;
        encoded = null;
    }

    public void record(long ts, long valueMs) {
        if (slots == null) {
            allocate();
        }
        long start = Math.floorDiv(ts, slotMillis) * slotMillis;
        int i = (int) Math.floorMod(Math.floorDiv(ts, slotMillis), slotStart.length);
        if (slotStart[i] != start) {
            if (slotStart[i] > start) {
                return;
            }
            clearSlot(i);
            slotStart[i] = start;
        }
        long v = Math.max(0, Math.min(HIGHEST_MS, valueMs));
        recordInSlot(i, v);
        if (encoded != null) {
            encoded[i] = null;
        }
        if (merged != null && mergedStarts[i] == start) {
            // the sample falls in the window handed out last: keep that merge current instead of redoing it
            merged.recordValue(v);
        }
    }

    private void recordInSlot(int i, long v) {
        if (slots[i] != null) {
            slots[i].recordValue(v);
            return;
        }
        if (raw == null) {
            raw = new int[slots.length][];
            rawCount = new int[slots.length];
        }
        int n = rawCount[i];
        if (n == RAW_LIMIT) {
            Histogram h = newHistogram();
            for (int k = 0; k < n; k++) {
                h.recordValue(raw[i][k]);
            }
            h.recordValue(v);
            slots[i] = h;
            raw[i] = null;
            rawCount[i] = 0;
            return;
        }
        if (raw[i] == null || raw[i].length == n) {
            raw[i] = raw[i] == null ? new int[4] : Arrays.copyOf(raw[i], Math.min(RAW_LIMIT, n * 2));
        }
        raw[i][n] = (int) v;
        rawCount[i] = n + 1;
    }

    private boolean holds(int i) {
        return slots[i] != null || (raw != null && rawCount[i] > 0);
    }

    private void clearSlot(int i) {
        slotStart[i] = Long.MIN_VALUE;
        slots[i] = null;
        if (raw != null) {
            raw[i] = null;
            rawCount[i] = 0;
        }
        if (encoded != null) {
            encoded[i] = null;
        }
    }

    private void addSlot(int i, Histogram into) {
        if (slots[i] != null) {
            into.add(slots[i]);
        } else if (raw != null) {
            for (int k = 0; k < rawCount[i]; k++) {
                into.recordValue(raw[i][k]);
            }
        }
    }

    /** A histogram with the full-range buckets at low values, growing as larger values come. */
    private static Histogram newHistogram() {
        return new Histogram(DIGITS);
    }

    /**
     * Drops the slots that no window up to this histogram's own span can include any more at
     * {@code now}, and the last merge if nothing is left: a target group that stops sending keeps
     * no samples.
     */
    public void expire(long now) {
        if (slots == null) {
            return;
        }
        long span = slotMillis * (slotStart.length - 1);
        boolean any = false;
        for (int i = 0; i < slotStart.length; i++) {
            if (slotStart[i] != Long.MIN_VALUE && slotStart[i] + slotMillis <= now - span) {
                clearSlot(i);
            }
            any |= holds(i);
        }
        if (!any) {
            release();
        }
    }

    /** Samples in (now - window, now]; the returned histogram must not be modified. */
    public Histogram window(long now, long windowMillis) {
        if (slots == null) {
            return EMPTY;
        }
        if (merged != null && sameSlots(now, windowMillis)) {
            return merged;
        }
        boolean any = false;
        for (int i = 0; i < slotStart.length && !any; i++) {
            any = included(i, now, windowMillis);
        }
        if (!any) {
            merged = null;
            return EMPTY;
        }
        long[] starts = new long[slotStart.length];
        Histogram h = newHistogram();
        boolean small = true;
        for (int i = 0; i < slotStart.length; i++) {
            starts[i] = Long.MIN_VALUE;
            if (included(i, now, windowMillis)) {
                addSlot(i, h);
                starts[i] = slotStart[i];
                small &= slots[i] == null;
            }
        }
        // a window of plain samples is cheap to merge again and costs 2 KB or more to keep: only
        // windows holding a histogram are kept for the next call
        merged = small ? null : h;
        mergedStarts = small ? null : starts;
        return h;
    }

    private boolean included(int i, long now, long windowMillis) {
        return holds(i) && slotStart[i] + slotMillis > now - windowMillis && slotStart[i] <= now;
    }

    /** Whether the window at {@code now} covers exactly the slots of the last merge (so the merge still holds). */
    private boolean sameSlots(long now, long windowMillis) {
        for (int i = 0; i < slotStart.length; i++) {
            long expected = included(i, now, windowMillis) ? slotStart[i] : Long.MIN_VALUE;
            if (mergedStarts[i] != expected) {
                return false;
            }
        }
        return true;
    }

    @JsonProperty("slots")
    List<String> encodedSlots() {
        if (slots == null) {
            return Arrays.asList(new String[slotStart.length]);
        }
        if (encoded == null || encoded.length != slots.length) {
            encoded = new String[slots.length];
        }
        List<String> out = new ArrayList<>(slots.length);
        for (int i = 0; i < slots.length; i++) {
            if (holds(i) && encoded[i] == null) {
                Histogram h = slots[i];
                if (h == null) {
                    h = newHistogram();
                    addSlot(i, h);
                }
                ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
                int n = h.encodeIntoCompressedByteBuffer(buf);
                encoded[i] = Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
            }
            out.add(holds(i) ? encoded[i] : null);
        }
        return out;
    }

    @JsonProperty("slots")
    void decodeSlots(List<String> encoded) {
        slots = new Histogram[encoded.size()];
        raw = null;
        rawCount = null;
        this.encoded = encoded.toArray(new String[0]);
        for (int i = 0; i < encoded.size(); i++) {
            String s = encoded.get(i);
            if (s != null) {
                try {
                    // a small floor: a histogram written at full range comes back as small as its values allow
                    Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(s)), 2);
                    h.setAutoResize(true);
                    restoreSlot(i, h);
                } catch (DataFormatException e) {
                    throw new IllegalStateException("corrupt latency histogram in state", e);
                }
            }
        }
        merged = null;
    }

    /** A restored slot with few samples goes back to plain values: every value recorded is its bucket's. */
    private void restoreSlot(int i, Histogram h) {
        if (h.getTotalCount() > RAW_LIMIT) {
            Histogram small = newHistogram();
            small.add(h);
            slots[i] = small;
            return;
        }
        for (HistogramIterationValue v : h.recordedValues()) {
            for (long k = 0; k < v.getCountAtValueIteratedTo(); k++) {
                recordInSlot(i, v.getValueIteratedTo());
            }
        }
    }
}
