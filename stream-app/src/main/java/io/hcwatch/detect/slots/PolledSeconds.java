package io.hcwatch.detect.slots;

import java.util.Arrays;

/**
 * One counter and its limit as the HAProxy collector polls them (a frontend's scur and slim, or
 * the process's CurrConns and Maxconn), second by second over a short ring. Unlike log lines,
 * which sample feconn only when a request ends, a poll reads the count every second whatever the
 * requests are doing, so a frontend filled by connections that have not ended yet shows at once.
 */
public final class PolledSeconds {

    public long[] second;
    /** Highest count polled in each second. */
    public int[] current;
    /** The limit polled with it; 0 when HAProxy reported none. */
    public int[] limit;
    public long lastSeen = Long.MIN_VALUE;

    public PolledSeconds() {
    }

    public PolledSeconds(int seconds) {
        second = new long[seconds];
        Arrays.fill(second, Long.MIN_VALUE);
        current = new int[seconds];
        limit = new int[seconds];
    }

    /** One poll at {@code time}; polls older than the ring are dropped. */
    public void add(long time, int count, Integer max) {
        long s = Math.floorDiv(time, 1000);
        int i = (int) Math.floorMod(s, second.length);
        if (second[i] != s) {
            if (second[i] > s) {
                return;
            }
            second[i] = s;
            current[i] = 0;
            limit[i] = 0;
        }
        current[i] = Math.max(current[i], count);
        if (max != null && max > 0) {
            limit[i] = max;
        }
        lastSeen = Math.max(lastSeen, time);
    }

    /**
     * The polls over (now - window, now], with the poll in force when it began: a count holds until
     * the next poll, as a logged sample does ({@link FrontendWindow}).
     */
    FrontendWindow window(long now, long windowMillis) {
        int peak = 0;
        int min = Integer.MAX_VALUE;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int entering = -1;
        for (int i = 0; i < second.length; i++) {
            long s = second[i];
            if (s == Long.MIN_VALUE || s * 1000 > now) {
                continue;
            }
            if (s * 1000 > now - windowMillis) {
                peak = Math.max(peak, current[i]);
                min = Math.min(min, current[i]);
                first = Math.min(first, s);
                last = Math.max(last, s);
            } else if (entering < 0 || s > second[entering]) {
                entering = i;
            }
        }
        if (entering >= 0 && last != Long.MIN_VALUE) {
            peak = Math.max(peak, current[entering]);
            min = Math.min(min, current[entering]);
            first = second[entering];
        }
        return new FrontendWindow(peak, min == Integer.MAX_VALUE ? 0 : min, first, last);
    }

    /** The limit of the newest poll at or before {@code now} that reported one, or 0. */
    int limitAt(long now) {
        long best = Long.MIN_VALUE;
        int found = 0;
        for (int i = 0; i < second.length; i++) {
            if (second[i] != Long.MIN_VALUE && second[i] * 1000 <= now && second[i] > best && limit[i] > 0) {
                best = second[i];
                found = limit[i];
            }
        }
        return found;
    }
}
