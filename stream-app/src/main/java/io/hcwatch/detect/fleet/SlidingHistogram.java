package io.hcwatch.detect.fleet;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Latency samples over a sliding event-time window, in fixed slots of HdrHistograms: memory is
 * bounded by the slot count whatever the sample rate, and quantiles stay within 1%.
 */
public final class SlidingHistogram {

    static final long HIGHEST_MS = 600_000;
    static final int DIGITS = 2;

    public long slotMillis;
    public long[] slotStart;
    @JsonIgnore
    private Histogram[] slots;
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
        this.slotStart = new long[slotCount + 1];
        java.util.Arrays.fill(slotStart, Long.MIN_VALUE);
        this.slots = new Histogram[slotCount + 1];
    }

    public void record(long ts, long valueMs) {
        long start = Math.floorDiv(ts, slotMillis) * slotMillis;
        int i = (int) Math.floorMod(Math.floorDiv(ts, slotMillis), slotStart.length);
        if (slotStart[i] != start) {
            if (slotStart[i] > start) {
                return;
            }
            slotStart[i] = start;
            slots[i] = new Histogram(HIGHEST_MS, DIGITS);
        }
        long v = Math.max(0, Math.min(HIGHEST_MS, valueMs));
        slots[i].recordValue(v);
        if (encoded != null) {
            encoded[i] = null;
        }
        if (merged != null && mergedStarts[i] == start) {
            // the sample falls in the window handed out last: keep that merge current instead of redoing it
            merged.recordValue(v);
        }
    }

    /** Samples in (now - window, now]; the returned histogram must not be modified. */
    public Histogram window(long now, long windowMillis) {
        if (merged != null && sameSlots(now, windowMillis)) {
            return merged;
        }
        long[] starts = new long[slotStart.length];
        Histogram h = new Histogram(HIGHEST_MS, DIGITS);
        for (int i = 0; i < slotStart.length; i++) {
            starts[i] = Long.MIN_VALUE;
            if (included(i, now, windowMillis)) {
                h.add(slots[i]);
                starts[i] = slotStart[i];
            }
        }
        merged = h;
        mergedStarts = starts;
        return h;
    }

    private boolean included(int i, long now, long windowMillis) {
        return slots[i] != null && slotStart[i] + slotMillis > now - windowMillis && slotStart[i] <= now;
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
        if (encoded == null || encoded.length != slots.length) {
            encoded = new String[slots.length];
        }
        List<String> out = new ArrayList<>(slots.length);
        for (int i = 0; i < slots.length; i++) {
            Histogram h = slots[i];
            if (h != null && encoded[i] == null) {
                ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
                int n = h.encodeIntoCompressedByteBuffer(buf);
                encoded[i] = Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
            }
            out.add(h == null ? null : encoded[i]);
        }
        return out;
    }

    @JsonProperty("slots")
    void decodeSlots(List<String> encoded) {
        slots = new Histogram[encoded.size()];
        this.encoded = encoded.toArray(new String[0]);
        for (int i = 0; i < encoded.size(); i++) {
            String s = encoded.get(i);
            if (s != null) {
                try {
                    slots[i] = Histogram.decodeFromCompressedByteBuffer(
                            ByteBuffer.wrap(Base64.getDecoder().decode(s)), HIGHEST_MS);
                } catch (DataFormatException e) {
                    throw new IllegalStateException("corrupt latency histogram in state", e);
                }
            }
        }
        merged = null;
    }
}
