package io.hcwatch.detect.feed;

import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import java.util.List;

/**
 * Telemetry feeds (one source from one HAProxy host or load balancer, keyed {@code source/name}):
 * remembers when each last sent data and judges its silence with the telemetry-gap detector.
 */
public final class FeedDetection implements Detection<FeedState> {

    private final GapSettings settings;
    private final List<Detector<FeedState>> detectors;

    public FeedDetection(GapSettings settings) {
        this.settings = settings;
        this.detectors = List.of(new TelemetryGapDetector(settings));
    }

    /** The key of a feed in the feed monitor. */
    public static String key(String source, String name) {
        return source + "/" + name;
    }

    @Override
    public FeedState newState(String key, Object first) {
        FeedSeen f = seen(first);
        return FeedState.of(f.getSource(), f.getName(), f.getTs());
    }

    @Override
    public void apply(FeedState state, Object record, long now) {
        state.seen(seen(record).getTs(), settings.allowedSilence(state));
    }

    private static FeedSeen seen(Object record) {
        if (!(record instanceof FeedSeen f)) {
            throw new IllegalArgumentException("the feed monitor cannot take " + record.getClass().getSimpleName());
        }
        return f;
    }

    @Override
    public List<Detector<FeedState>> detectors() {
        return detectors;
    }
}
