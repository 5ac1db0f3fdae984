package io.hcwatch.detect.flood;

import io.hcwatch.config.Settings;

/** The client-flood detector's settings, read once (flood.*; window.grace for how long seconds are kept). */
public record FloodSettings(long windowMillis, double minShare, double minRate, int top, int capacity, long graceMillis) {

    public static FloodSettings from(Settings s) {
        return new FloodSettings(s.millis("flood.window"), s.number("flood.min-share"), s.number("flood.min-rate"),
                s.integer("flood.top"), s.integer("flood.capacity"), s.millis("window.grace"));
    }
}
