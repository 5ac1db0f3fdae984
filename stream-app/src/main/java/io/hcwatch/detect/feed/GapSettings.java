package io.hcwatch.detect.feed;

import io.hcwatch.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * How long each source may be silent before its feed is judged stopped (gap.after): its normal
 * delay, from seconds for streamed logs to two delivery periods for ALB's 5-minute S3 batches. A
 * source not listed (or listed at 0s) is not watched: health-check results pushed by the
 * collectors come only on changes, so their silence means nothing.
 */
public record GapSettings(Map<String, Duration> after) {

    public static GapSettings from(Settings s) {
        // a source set alone keeps the others' defaults
        Map<String, Duration> after = new java.util.HashMap<>(Settings.defaults().durationsByName("gap.after"));
        after.putAll(s.durationsByName("gap.after"));
        return new GapSettings(Map.copyOf(after));
    }

    /** The silence that makes {@code source}'s feed stopped; 0: not watched. */
    public long afterMillis(String source) {
        Duration d = after.get(source);
        return d == null ? 0 : d.toMillis();
    }
}
