package io.hcwatch.detect.feed;

/** One feed: one source from one HAProxy host or load balancer, and the event time it last sent. */
public final class FeedState {

    public String source;
    public String name;
    /** Event time of the feed's first and newest data (epoch ms). */
    public long firstSeen;
    public long lastSeen;

    public FeedState() {
    }

    public static FeedState of(String source, String name, long seen) {
        FeedState s = new FeedState();
        s.source = source;
        s.name = name;
        s.firstSeen = seen;
        s.lastSeen = seen;
        return s;
    }

    /** Data of {@code time} arrived; what comes late does not move the feed back. */
    public void seen(long time) {
        lastSeen = Math.max(lastSeen, time);
        firstSeen = Math.min(firstSeen, time);
    }
}
