package io.hcwatch.detect.feed;

/**
 * One feed: one source from one HAProxy host or load balancer, the event time it last sent, and
 * the longest silences between its data that were normal (not themselves gaps), over this hour
 * and the one before (of event time): a host that logs one request a minute at night has minute-long
 * silences that mean nothing.
 */
public final class FeedState {

    static final long HOUR = 3_600_000L;

    public String source;
    public String name;
    /** Event time of the feed's first and newest data (epoch ms). */
    public long firstSeen;
    public long lastSeen;
    /** Start of the hour {@link #usualGapThisHour} covers; the hour before is in {@link #usualGapLastHour}. */
    public long hourStart;
    public long usualGapThisHour;
    public long usualGapLastHour;
    /**
     * Event time of the collector's newest poll of this HAProxy host (haproxy feeds only; 0: never
     * polled). A poll says the host and HAProxy are up, so a silence of the logs while it goes on is
     * the shipping that stopped, not the host.
     */
    public long lastPolled;
    /**
     * Event time of the newest poll in which HAProxy served sessions (null: none seen, or no polls).
     * Polls that go on while HAProxy serves nothing say the host is quiet, not its shipping broken.
     */
    public Long lastServed;

    public FeedState() {
    }

    public static FeedState of(String source, String name, long seen) {
        FeedState s = new FeedState();
        s.source = source;
        s.name = name;
        s.firstSeen = seen;
        s.lastSeen = seen;
        s.hourStart = Math.floorDiv(seen, HOUR) * HOUR;
        return s;
    }

    /** A feed the collector's polls of its host created before any of its data arrived. */
    public static FeedState polledOnly(String source, String name, long polled) {
        FeedState s = new FeedState();
        s.source = source;
        s.name = name;
        s.lastPolled = polled;
        return s;
    }

    /** Whether any of the feed's own data has arrived (a feed known only from polls has sent none). */
    public boolean sentData() {
        return lastSeen > 0;
    }

    /** The collector polled the host at {@code time}; a late poll does not move it back. */
    public void polled(long time) {
        polled(time, true);
    }

    /** @param served whether HAProxy served sessions in the interval this poll covers */
    public void polled(long time, boolean served) {
        lastPolled = Math.max(lastPolled, time);
        if (served) {
            lastServed = lastServed == null ? time : Math.max(lastServed, time);
        }
    }

    /**
     * Whether the collector's polls say the host has been up and quiet since its last log line: polled
     * within the allowed silence, none of those polls serving a session since {@code quietFrom}.
     */
    public boolean polledQuietSince(long quietFrom, long now, long allowed) {
        return lastPolled > 0 && now - lastPolled <= allowed && (lastServed == null || lastServed <= quietFrom);
    }

    /** The longest normal silence of the last one to two hours. */
    public long usualGap() {
        return Math.max(usualGapThisHour, usualGapLastHour);
    }

    /**
     * Data of {@code time} arrived. What comes late does not move the feed back; a silence up to
     * {@code allowed} (the silence that would have been a gap) is remembered as normal for this feed.
     */
    public void seen(long time, long allowed) {
        if (!sentData()) {
            firstSeen = time;
            lastSeen = time;
            hourStart = Math.floorDiv(time, HOUR) * HOUR;
            return;
        }
        firstSeen = Math.min(firstSeen, time);
        if (time <= lastSeen) {
            return;
        }
        long hour = Math.floorDiv(time, HOUR) * HOUR;
        if (hour > hourStart) {
            usualGapLastHour = hour == hourStart + HOUR ? usualGapThisHour : 0;
            usualGapThisHour = 0;
            hourStart = hour;
        }
        long silence = time - lastSeen;
        if (silence <= allowed) {
            usualGapThisHour = Math.max(usualGapThisHour, silence);
        }
        lastSeen = time;
    }
}
