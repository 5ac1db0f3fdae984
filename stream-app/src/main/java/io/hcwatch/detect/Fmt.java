package io.hcwatch.detect;

import java.time.Instant;
import java.util.Locale;

/** Number formats shared by alert summaries and details, so every alert reads the same way. */
public final class Fmt {

    private Fmt() {
    }

    public static String pct(double fraction) {
        return Math.round(fraction * 100) + "%";
    }

    public static String ms(double millis) {
        return Math.round(millis) + "ms";
    }

    public static String seconds(long millis) {
        long s = Math.round(millis / 1000.0);
        return s + "s";
    }

    /** 1m30s style, for durations people read in alerts. */
    public static String duration(long millis) {
        long s = Math.round(millis / 1000.0);
        if (s < 60) {
            return s + "s";
        }
        long m = s / 60;
        long rem = s % 60;
        if (m < 60) {
            return rem == 0 ? m + "m" : m + "m" + rem + "s";
        }
        long h = m / 60;
        return (m % 60 == 0) ? h + "h" : h + "h" + (m % 60) + "m";
    }

    public static String decimal(double d, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", d);
    }

    public static String instant(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
