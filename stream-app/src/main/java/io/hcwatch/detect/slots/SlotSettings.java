package io.hcwatch.detect.slots;

import io.hcwatch.config.Settings;

/**
 * The socket-slot detector's settings, read once (slots.*).
 *
 * @param sustainMillis how long the ratio must hold before warning
 * @param graceMillis   out-of-order summaries up to this late still land in their second (window.grace)
 */
public record SlotSettings(double warningRatio, double criticalRatio, long sustainMillis, int defaultMaxconn, long graceMillis) {

    public static SlotSettings from(Settings s) {
        return new SlotSettings(s.number("slots.warning-ratio"), s.number("slots.critical-ratio"), s.millis("slots.sustain"),
                s.integer("slots.default-maxconn"), s.millis("window.grace"));
    }

    /** Seconds each frontend keeps: the sustain window and the grace period, and some slack. */
    int ringSeconds() {
        return (int) (Math.max(sustainMillis, graceMillis) / 1000 + 8);
    }
}
