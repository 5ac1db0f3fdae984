package io.hcwatch.detect.slots;

import io.hcwatch.detect.Fmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who held a frontend's connection slots over a window: each logged request held one for its
 * whole time (Ta, a tarpit's included), so a client's slot-seconds are the sum of its requests'
 * times. A slow flood (a few requests a second, each held for seconds) shows here though its
 * request rate is low.
 *
 * @param totalMs   slot-milliseconds of every request logged in the window
 * @param byHolder  clients (IPv4, IPv6 /64) by slot-milliseconds, most first
 */
record SlotHolders(long totalMs, List<Map.Entry<String, Long>> byHolder) {

    static SlotHolders of(FrontendSeconds f, long now, long windowMillis) {
        long total = 0;
        Map<String, Long> sums = new HashMap<>();
        for (int i = 0; i < f.second.length; i++) {
            if (f.within(i, now, windowMillis)) {
                total += f.slotMs[i];
                f.holders.get(i).forEach((client, ms) -> sums.merge(client, ms, Long::sum));
            }
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(sums.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return new SlotHolders(total, sorted);
    }

    double share(Map.Entry<String, Long> holder) {
        return totalMs == 0 ? 0 : (double) holder.getValue() / totalMs;
    }

    /** "203.0.113.77=93%,198.51.100.4=2%" for the top {@code n}. */
    String describe(int n) {
        StringBuilder sb = new StringBuilder();
        byHolder.stream().limit(n).forEach(h -> sb.append(sb.length() > 0 ? "," : "").append(h.getKey()).append('=')
                .append(Fmt.pct(share(h))));
        return sb.toString();
    }
}
