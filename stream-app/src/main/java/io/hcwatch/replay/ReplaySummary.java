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
    /** Incident pages by change (opened, updated, resolved). */
    final Map<String, Long> incidentPages = new TreeMap<>();

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

    void incident(String change) {
        incidentPages.merge(change, 1L, Long::sum);
    }

    /** Incident pages by change: opened, updated, resolved. */
    public Map<String, Long> incidentPages() {
        return incidentPages;
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
        out.printf("incidents: %d opened, %d pages%n", incidentPages.getOrDefault("opened", 0L),
                incidentPages.values().stream().mapToLong(Long::longValue).sum());
        incidentPages.forEach((c, n) -> out.printf("  %-45s %6d%n", c, n));
    }
}
