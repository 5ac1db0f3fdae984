package io.hcwatch.detect.feed;

import io.hcwatch.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * How long each source may be silent before its feed is judged stopped (gap.after): its normal
 * delay, from seconds for streamed logs to two delivery periods for ALB's 5-minute S3 batches. A
 * source not listed (or listed at 0s) is not watched: health-check results pushed by the
 * collectors come only on changes, so their silence means nothing. A feed whose own data comes
 * sparser (a quiet host at night) may be silent {@code usualMultiple} times its longest normal
 * silence of the last hour or two.
 */
public record GapSettings(Map<String, Duration> after, double usualMultiple) {

    public static GapSettings from(Settings s) {
        // a source set alone keeps the others' defaults
        Map<String, Duration> after = new java.util.HashMap<>(Settings.defaults().durationsByName("gap.after"));
        after.putAll(s.durationsByName("gap.after"));
        return new GapSettings(Map.copyOf(after), s.number("gap.usual-multiple"));
    }

    /** The silence after which {@code feed} is stopped; 0: not watched. */
    public long allowedSilence(FeedState feed) {
        long after = afterMillis(feed.source);
        return after <= 0 ? 0 : Math.max(after, Math.round(usualMultiple * feed.usualGap()));
    }

    /** The silence that makes {@code source}'s feed stopped at the least; 0: not watched. */
    public long afterMillis(String source) {
        Duration d = after.get(source);
        return d == null ? 0 : d.toMillis();
    }
}
