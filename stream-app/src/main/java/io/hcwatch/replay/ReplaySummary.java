package io.hcwatch.replay;

import io.hcwatch.topology.Source;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/** What a replay read and raised, for the summary on stderr. */
public final class ReplaySummary {

    /** Per source: read, parsed, rejected, skipped. */
    final Map<Source, long[]> counts = new EnumMap<>(Source.class);
    final Map<String, Long> alertsByType = new TreeMap<>();
    long alerts;

    void read(Source s) {
        counts.computeIfAbsent(s, k -> new long[4])[0]++;
    }

    void outcome(Source s, int index) {
        counts.computeIfAbsent(s, k -> new long[4])[index]++;
    }

    void alert(String type, String status) {
        alerts++;
        alertsByType.merge(type + " (" + status + ")", 1L, Long::sum);
    }

    public long read(Source s, int index) {
        long[] c = counts.get(s);
        return c == null ? 0 : c[index];
    }

    public long rejected() {
        return counts.values().stream().mapToLong(c -> c[2]).sum();
    }

    public long alerts() {
        return alerts;
    }

    public Map<String, Long> alertsByType() {
        return alertsByType;
    }

    public void print(PrintStream out, long millis) {
        long total = counts.values().stream().mapToLong(c -> c[0]).sum();
        out.printf("replay: %d records in %.1fs (%.0f records/s)%n", total, millis / 1000.0,
                millis == 0 ? 0.0 : total * 1000.0 / millis);
        out.printf("  %-11s %10s %10s %10s %10s%n", "source", "read", "parsed", "rejected", "skipped");
        counts.forEach((s, c) -> out.printf("  %-11s %10d %10d %10d %10d%n", s.id(), c[0], c[1], c[2], c[3]));
        out.printf("alerts: %d%n", alerts);
        alertsByType.forEach((t, n) -> out.printf("  %-45s %6d%n", t, n));
    }
}
