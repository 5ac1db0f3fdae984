package io.hcwatch.time;

/**
 * One upstream's side of the time model, kept by the ingest that reads it: how far in event time
 * it has sent everything on, and whether it has gone idle. Its reports reach every monitor it
 * feeds ({@link Upstreams}). Progress is the newest event time read, but never past a record still
 * held back (a per-second summary or a batch of checks not yet sent): nothing at or below a
 * reported time may follow, except out-of-order input, which the monitors count as late.
 *
 * <p>A source delivered in batches (ALB logs: one object per load-balancer node every five
 * minutes, minutes late) has an expected delay: records up to that much older than the newest
 * read may still come (another node's batch for the same minutes). Its progress is the newest
 * time read minus the delay, catching up with the wall clock while the partition is quiet (after
 * a whole delay of quiet nothing older can come), and it goes idle only after the delay plus the
 * idle timeout of quiet: the wait between two batches is its normal pace, not silence. Before its
 * first record it asks to be waited for as long (its first batch may be on its way), so that
 * batch is not late after a start either.
 */
public final class UpstreamClock {

    /** A report to send: everything up to {@code time} has been sent; {@code idle} when nothing is read or held. */
    public record Report(long time, boolean idle) {
    }

    private final long idleTimeoutMillis;
    private final int idleTicks;
    private final long delayMillis;
    private long newest = Long.MIN_VALUE;
    private long readAtWall = Long.MIN_VALUE;
    private long ticks;
    private long readAtTick;
    private boolean readAny;
    private long reportedTime = Long.MIN_VALUE;
    private boolean reportedIdle;
    private boolean reportedOnce;
    private long reportedAtWall;

    /** @param idleTimeoutMillis wall time without a record after which an upstream holding nothing is idle (0: at once) */
    public UpstreamClock(long idleTimeoutMillis) {
        this(idleTimeoutMillis, 0);
    }

    /**
     * @param idleTicks {@link #tick() ticks} that must also have passed without a record: a stream
     *                  thread starved of CPU (or paused by GC) for longer than the idle timeout
     *                  reads nothing for that long, but has not found its partition quiet; ticks
     *                  only count while the thread runs
     */
    public UpstreamClock(long idleTimeoutMillis, int idleTicks) {
        this(idleTimeoutMillis, idleTicks, 0);
    }

    /**
     * @param delayMillis how much older than the newest record read a record of this source may
     *                    still arrive in normal operation (0: in order, as read; see the class doc)
     */
    public UpstreamClock(long idleTimeoutMillis, int idleTicks, long delayMillis) {
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.idleTicks = idleTicks;
        this.delayMillis = delayMillis;
    }

    /** The ingest's periodic flush ran: one more tick of time the partition could have been read in. */
    public void tick() {
        ticks++;
    }

    /** A record with event time {@code eventTime} was read at wall time {@code wallNow}. */
    public void read(long eventTime, long wallNow) {
        newest = Math.max(newest, eventTime);
        readUntimed(wallNow);
    }

    /**
     * A record without an event time (one that did not parse) was read: the partition is being
     * read, so it is not idle, however long it goes without telemetry (a run of junk is not silence).
     */
    public void readUntimed(long wallNow) {
        readAtWall = wallNow;
        readAtTick = ticks;
        readAny = true;
    }

    /**
     * What to report now, or null when nothing changed since the last report.
     *
     * @param oldestHeld event time of the oldest record still held back, {@code Long.MAX_VALUE} when none
     */
    public Report report(long oldestHeld, long wallNow) {
        return report(oldestHeld, wallNow, false);
    }

    /** @param lagging the partition is known to have records not yet read: not idle, however long since the last one */
    public Report report(long oldestHeld, long wallNow, boolean lagging) {
        if (readAtWall == Long.MIN_VALUE) {
            // quiet since the first look, not since the epoch
            readAtWall = wallNow;
            readAtTick = ticks;
        }
        long quiet = wallNow - readAtWall;
        boolean idle = !lagging && oldestHeld == Long.MAX_VALUE && quiet >= idleTimeoutMillis + delayMillis
                && ticks - readAtTick >= idleTicks;
        // a batched partition with nothing read yet may be waiting for its first batch: it asks to be waited for
        if (newest == Long.MIN_VALUE && !idle && !readAny && delayMillis == 0) {
            // nothing read yet (after a restart too): only "idle", so a quiet partition does not hold
            // back monitors that remember it from before
            return null;
        }
        // records read but none with a time yet (a run of junk before the first telemetry): it reports
        // at Long.MIN_VALUE, "wait for me", so monitors do not run ahead of telemetry it has yet to reach
        long time = Math.max(reportedTime, Math.min(complete(quiet), oldestHeld == Long.MAX_VALUE ? newest : oldestHeld - 1));
        // an unchanged report is repeated now and then while the upstream is active, so that its
        // monitors can tell an upstream that has nothing new from one whose task has stopped
        boolean heartbeat = idleTimeoutMillis > 0 && !idle && wallNow - reportedAtWall >= idleTimeoutMillis / 2;
        if (reportedOnce && time == reportedTime && idle == reportedIdle && !heartbeat) {
            return null;
        }
        reportedOnce = true;
        reportedAtWall = wallNow;
        reportedTime = time;
        reportedIdle = idle;
        return new Report(time, idle);
    }

    /**
     * The event time up to which nothing more is expected: the newest read, less the delay still
     * to run after {@code quiet} of wall time without a record (counted in whole seconds, so a
     * quiet partition reports at most once a second).
     */
    private long complete(long quiet) {
        if (delayMillis == 0 || newest == Long.MIN_VALUE) {
            return newest;
        }
        long waited = Math.min(delayMillis, Math.max(0, quiet) / 1000 * 1000);
        return newest - delayMillis + waited;
    }
}
