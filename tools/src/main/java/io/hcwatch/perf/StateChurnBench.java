package io.hcwatch.perf;

import io.hcwatch.config.Settings;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Prints the fleet store's curve while target groups appear and disappear for days ({@link ChurnRun}):
 * keys and changelog bytes every few hours, and the heap after GC, then the peak after the first
 * day against the first day's.
 */
public final class StateChurnBench {

    private StateChurnBench() {
    }

    public static void run(int days, int groups, int targets, long lifetimeMillis, long intervalMillis, String idleTimeout,
                           int sampleHours, PrintStream out) {
        Settings settings = Settings.defaults().with(Map.of("state.idle-timeout", idleTimeout));
        out.printf("state churn benchmark: %,d target groups x %d targets over %d days, each checked every %d s for %.1f h;"
                + " state.idle-timeout %s%n", groups, targets, days, intervalMillis / 1000, lifetimeMillis / 3.6e6, idleTimeout);
        out.printf("  %6s %8s %10s %14s %10s%n", "hour", "sending", "store keys", "store bytes", "heap MiB");
        long started = System.nanoTime();
        List<ChurnRun.Sample> curve = ChurnRun.run(groups, targets, days * 24 * ChurnRun.HOUR, lifetimeMillis, intervalMillis,
                settings, sampleHours, s -> {
                    System.gc();
                    long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
                    out.printf("  %6d %8d %10d %14d %10d%n", s.hour(), s.live(), s.keys(), s.bytes(), heap >> 20);
                });
        int firstDayKeys = 0;
        long firstDayBytes = 0;
        int laterKeys = 0;
        long laterBytes = 0;
        for (ChurnRun.Sample s : curve) {
            if (s.hour() <= 24) {
                firstDayKeys = Math.max(firstDayKeys, s.keys());
                firstDayBytes = Math.max(firstDayBytes, s.bytes());
            } else {
                laterKeys = Math.max(laterKeys, s.keys());
                laterBytes = Math.max(laterBytes, s.bytes());
            }
        }
        out.printf("peak after day 1: %,d keys, %,d bytes; peak in day 1: %,d keys, %,d bytes; %,d groups seen; %.0f s%n",
                laterKeys, laterBytes, firstDayKeys, firstDayBytes, groups, (System.nanoTime() - started) / 1e9);
    }
}
