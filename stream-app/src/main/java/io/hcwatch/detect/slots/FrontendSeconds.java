package io.hcwatch.detect.slots;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One HAProxy frontend on one host, second by second over a short ring: connections and terminations. */
public final class FrontendSeconds {

    public long[] second;
    public int[] maxFeconn;
    public int[] maxActconn;
    public long[] requests;
    public long[] tarpitted;
    public long[] tarpitMs;
    public long[] rejected;
    public long[] status503;
    /** Slot-milliseconds held by the requests logged in each second (Ta, tarpit included). */
    public long[] slotMs;
    /** Requests that waited (Tw > 0, queue or tarpit terminations) in each second. */
    public long[] waited;
    /** Per second, the clients holding the most slot-milliseconds (bounded). */
    public List<Map<String, Long>> holders;
    public Map<String, Long> recentTerminations = new HashMap<>();
    public long lastSeen;

    public FrontendSeconds() {
    }

    public FrontendSeconds(int seconds) {
        second = new long[seconds];
        java.util.Arrays.fill(second, Long.MIN_VALUE);
        maxFeconn = new int[seconds];
        maxActconn = new int[seconds];
        requests = new long[seconds];
        tarpitted = new long[seconds];
        tarpitMs = new long[seconds];
        rejected = new long[seconds];
        status503 = new long[seconds];
        slotMs = new long[seconds];
        waited = new long[seconds];
        holders = new ArrayList<>(seconds);
        for (int i = 0; i < seconds; i++) {
            holders.add(new HashMap<>());
        }
    }

    /** The slot for the second starting at {@code bucketStart}, cleared if it held an older second; -1 if too old. */
    public int slot(long bucketStart) {
        long s = Math.floorDiv(bucketStart, 1000);
        int i = (int) Math.floorMod(s, second.length);
        if (second[i] != s) {
            if (second[i] > s) {
                return -1;
            }
            second[i] = s;
            maxFeconn[i] = 0;
            maxActconn[i] = 0;
            requests[i] = 0;
            tarpitted[i] = 0;
            tarpitMs[i] = 0;
            rejected[i] = 0;
            status503[i] = 0;
            slotMs[i] = 0;
            waited[i] = 0;
            holders.get(i).clear();
        }
        return i;
    }

    /** Whether {@code i} holds a second in (now - window, now]. */
    public boolean within(int i, long now, long windowMillis) {
        long s = second[i];
        return s != Long.MIN_VALUE && s * 1000 > now - windowMillis && s * 1000 <= now;
    }
}
