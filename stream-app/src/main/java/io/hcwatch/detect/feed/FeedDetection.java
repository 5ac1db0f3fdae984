package io.hcwatch.detect.feed;

import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.input.FeedHeartbeat;
import java.util.List;

/**
 * Telemetry feeds (one source from one HAProxy host or load balancer, keyed {@code source/name}):
 * remembers when each last sent data and judges its silence with the telemetry-gap detector.
 */
public final class FeedDetection implements Detection<FeedState, FeedHeartbeat> {

    /** The source of HAProxy's logs, whose feeds the collector's polls vouch for. */
    public static final String HAPROXY = "haproxy";
    /**
     * The source of the collector's polls of HAProxy hosts: not a feed of its own but the heartbeat
     * of the host's {@link #HAPROXY} feed, keyed like it ({@link #pollOf}).
     */
    public static final String POLLS = "haproxy-stats";
    /**
     * A poll in which HAProxy served no new session (every frontend's stot unchanged): the host is up
     * and quiet, so its logs have nothing to say. Polls of releases before this one all read as POLLS.
     */
    public static final String IDLE_POLLS = "haproxy-stats-idle";

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

    /** The collector's poll of HAProxy host {@code host} at {@code ts}, for the feed monitor key {@code key(HAPROXY, host)}. */
    public static FeedHeartbeat pollOf(String host, long ts) {
        return pollOf(host, ts, true);
    }

    /** @param served whether HAProxy served sessions since the poll before (false only when the poll says none) */
    public static FeedHeartbeat pollOf(String host, long ts, boolean served) {
        return new FeedHeartbeat(new FeedSeen(served ? POLLS : IDLE_POLLS, host, ts));
    }

    private static boolean isPoll(FeedSeen f) {
        return POLLS.equals(f.getSource()) || IDLE_POLLS.equals(f.getSource());
    }

    @Override
    public FeedState newState(String key, FeedHeartbeat first) {
        FeedSeen f = first.seen();
        return isPoll(f) ? FeedState.polledOnly(HAPROXY, f.getName(), f.getTs())
                : FeedState.of(f.getSource(), f.getName(), f.getTs());
    }

    @Override
    public boolean apply(FeedState state, FeedHeartbeat record, long now) {
        FeedSeen f = record.seen();
        if (isPoll(f)) {
            state.polled(f.getTs(), POLLS.equals(f.getSource()));
        } else {
            state.seen(f.getTs(), settings.allowedSilence(state));
        }
        // a feed's silence is judged at steps; a heartbeat only ends it
        return false;
    }

    @Override
    public List<Detector<FeedState>> detectors() {
        return detectors;
    }
}
