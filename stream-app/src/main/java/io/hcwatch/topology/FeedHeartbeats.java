package io.hcwatch.topology;

import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.detect.feed.FeedDetection;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.topology.Routed.Destination;
import java.util.HashMap;
import java.util.Map;

/**
 * Tells the feed monitor, at most once per second of event time per feed, that this partition's
 * feed from an HAProxy host or a load balancer sent data: telemetry_gap notices when a feed that
 * was sending stops.
 */
final class FeedHeartbeats {

    private final Source source;
    private final Outbox out;
    /** Per feed (host or load balancer) of this partition, the newest second reported to the feed monitor. */
    private final Map<String, Long> seconds = new HashMap<>();

    FeedHeartbeats(Source source, Outbox out) {
        this.source = source;
        this.out = out;
    }

    /** This source's feed from {@code name} sent data up to {@code time}; a source that paces no feed monitor sends nothing. */
    void seen(String name, long time) {
        if (name == null || !source.paces().contains(Destination.FEED) || !firstOfItsSecond(name, time)) {
            return;
        }
        out.send(Destination.FEED, FeedDetection.key(source.id(), name), new FeedHeartbeat(new FeedSeen(source.id(), name, time)),
                time);
    }

    /**
     * The collector polled HAProxy host {@code host} at {@code time}: the heartbeat of the host's
     * haproxy feed, so telemetry_gap tells a log-shipping gap from a host gone.
     */
    void polled(String host, long time, boolean served) {
        if (firstOfItsSecond(host, time)) {
            out.send(Destination.FEED, FeedDetection.key(FeedDetection.HAPROXY, host), FeedDetection.pollOf(host, time, served),
                    time);
        }
    }

    private boolean firstOfItsSecond(String name, long time) {
        long second = Math.floorDiv(time, 1000) * 1000;
        Long last = seconds.get(name);
        if (last != null && last >= second) {
            return false;
        }
        seconds.put(name, second);
        return true;
    }
}
