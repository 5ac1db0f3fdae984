package io.hcwatch.detect.slots;

import io.hcwatch.config.Settings;

/**
 * The socket-slot detectors' settings, read once (slots.*).
 *
 * @param sustainMillis         how long the ratio must hold before warning
 * @param holderShare           a client holding this share of a frontend's slot-seconds while it is full floods it (client_flood, reason slots)
 * @param holders               clients named as holders in an alert
 * @param inferredMinSessions   without a known maxconn, a frontend flat at fewer sessions than this is not taken for full
 * @param graceMillis           out-of-order summaries up to this late still land in their second (window.grace)
 */
public record SlotSettings(double warningRatio, double criticalRatio, long sustainMillis, double holderShare, int holders,
                           int inferredMinSessions, long graceMillis) {

    public static SlotSettings from(Settings s) {
        return new SlotSettings(s.number("slots.warning-ratio"), s.number("slots.critical-ratio"), s.millis("slots.sustain"),
                s.number("slots.holder-share"), s.integer("slots.holders"), s.integer("slots.inferred-min-sessions"),
                s.millis("window.grace"));
    }

    /** Seconds each frontend keeps: the sustain window and the grace period, and some slack. */
    int ringSeconds() {
        return (int) (Math.max(sustainMillis, graceMillis) / 1000 + 8);
    }
}
