package io.hcwatch.time;

import io.hcwatch.config.Settings;
import java.time.Duration;
import java.util.Map;

/**
 * The settings of the time model, read once.
 *
 * @param step           evaluation step (eval.step)
 * @param grace          records older than the watermark by more than this count as late (window.grace)
 * @param idleTimeout    wall time after which a quiet input partition is not waited for (window.idle-timeout)
 * @param silentTimeout  wall time after which a partition whose ingest stopped reporting is not waited for (window.silent-timeout)
 * @param maxUpstreamLag event time behind the newest partition beyond which one is not waited for (window.max-upstream-lag)
 * @param silence        whether time moves with the wall clock when all input stops (silence.enabled)
 * @param sourceDelays   expected delay of each source delivered in batches, by source id (window.source-delay)
 */
public record TimeSettings(Duration step, Duration grace, Duration idleTimeout, Duration silentTimeout, Duration maxUpstreamLag,
                           boolean silence, Map<String, Duration> sourceDelays) {

    public TimeSettings(Duration step, Duration grace, Duration idleTimeout, Duration silentTimeout, Duration maxUpstreamLag,
                        boolean silence) {
        this(step, grace, idleTimeout, silentTimeout, maxUpstreamLag, silence, Map.of());
    }

    public static TimeSettings from(Settings settings) {
        return new TimeSettings(settings.duration("eval.step"), settings.duration("window.grace"),
                settings.duration("window.idle-timeout"), settings.duration("window.silent-timeout"),
                settings.duration("window.max-upstream-lag"),
                settings.flag("silence.enabled"), Map.copyOf(settings.durationsByName("window.source-delay")));
    }

    /** The expected delay of a source (zero for one read as it happens). */
    public Duration delayOf(String sourceId) {
        return sourceDelays.getOrDefault(sourceId, Duration.ZERO);
    }

    /** The expected delay of the source an upstream (input partition) belongs to, in milliseconds. */
    public long upstreamDelayMillis(String upstreamId) {
        return delayOf(Upstreams.sourceOf(upstreamId)).toMillis();
    }
}
