package io.hcwatch.cli;

import java.time.Duration;

/** Durations as people read them on a terminal: 45s, 3m07s, 1h05m. */
final class Durations {

    private Durations() {
    }

    static String human(Duration d) {
        long s = Math.abs(d.toSeconds());
        String sign = d.isNegative() ? "-" : "";
        if (s < 60) {
            return sign + s + "s";
        }
        if (s < 3600) {
            return sign + (s / 60) + "m" + String.format(java.util.Locale.ROOT, "%02d", s % 60) + "s";
        }
        return sign + (s / 3600) + "h" + String.format(java.util.Locale.ROOT, "%02d", s % 3600 / 60) + "m";
    }
}
