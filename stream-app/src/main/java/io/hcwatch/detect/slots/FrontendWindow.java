package io.hcwatch.detect.slots;

import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One frontend counter (feconn, actconn) over a window, as HAProxy logs it: a sample with each
 * request it logs, which holds until the next. A frontend full of tarpitted connections logs in
 * bursts (every request of a burst ends when the tarpit does) and is silent in between; its count
 * did not drop in the silence. So the window starts with the last sample before it, and every
 * sample in it counts.
 *
 * @param peak        highest sample in force during the window
 * @param min         lowest sample in force during the window
 * @param firstSecond the second of the sample in force at the window's start (or the first in it)
 * @param lastSecond  the second of the last sample in the window
 */
record FrontendWindow(int peak, int min, long firstSecond, long lastSecond) {

    /** Over (now - window, now], with the sample in force when it began. */
    static FrontendWindow of(FrontendSeconds f, long now, long windowMillis, int[] values) {
        int peak = 0;
        int min = Integer.MAX_VALUE;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int entering = -1;
        for (int i = 0; i < f.second.length; i++) {
            if (f.second[i] == Long.MIN_VALUE || f.requests[i] == 0) {
                continue;
            }
            if (f.within(i, now, windowMillis)) {
                peak = Math.max(peak, values[i]);
                min = Math.min(min, values[i]);
                first = Math.min(first, f.second[i]);
                last = Math.max(last, f.second[i]);
            } else if (f.second[i] * 1000 <= now - windowMillis && (entering < 0 || f.second[i] > f.second[entering])) {
                entering = i;
            }
        }
        if (entering >= 0 && last != Long.MIN_VALUE) {
            peak = Math.max(peak, values[entering]);
            min = Math.min(min, values[entering]);
            first = f.second[entering];
        }
        return new FrontendWindow(peak, min == Integer.MAX_VALUE ? 0 : min, first, last);
    }

    /**
     * The process-wide actconn over (now - window, now]: every frontend's log lines sample the
     * same counter, so the samples of all frontends merge into one series and a frontend quiet
     * for part of the window takes nothing away.
     */
    static FrontendWindow ofProcess(Collection<FrontendSeconds> frontends, long now, long windowMillis) {
        TreeMap<Long, int[]> bySecond = new TreeMap<>(); // second -> {highest, lowest} sample
        for (FrontendSeconds f : frontends) {
            for (int i = 0; i < f.second.length; i++) {
                if (f.second[i] != Long.MIN_VALUE && f.requests[i] > 0 && f.second[i] * 1000 <= now) {
                    int v = f.maxActconn[i];
                    bySecond.merge(f.second[i], new int[] {v, v}, (a, b) -> new int[] {Math.max(a[0], b[0]), Math.min(a[1], b[1])});
                }
            }
        }
        long startSecond = Math.floorDiv(now - windowMillis, 1000);
        SortedMap<Long, int[]> in = bySecond.tailMap(startSecond + 1);
        if (in.isEmpty()) {
            return new FrontendWindow(0, 0, Long.MAX_VALUE, Long.MIN_VALUE);
        }
        Map.Entry<Long, int[]> entering = bySecond.floorEntry(startSecond);
        int peak = 0;
        int min = Integer.MAX_VALUE;
        for (int[] v : entering == null ? in.values() : bySecond.tailMap(entering.getKey()).values()) {
            peak = Math.max(peak, v[0]);
            min = Math.min(min, v[1]);
        }
        return new FrontendWindow(peak, min, entering == null ? in.firstKey() : entering.getKey(), in.lastKey());
    }

    /** Whether samples span the whole window: one in force at its start, one in it. */
    boolean covers(long windowMillis) {
        return firstSecond != Long.MAX_VALUE && (lastSecond - firstSecond + 1) * 1000 >= windowMillis;
    }

    /** Every sample in force during the window at or above {@code level}, covering the whole window. */
    boolean sustainedAtLeast(double level, long windowMillis) {
        return covers(windowMillis) && min >= level;
    }
}
