package io.hcwatch.topology;

/**
 * When an ingest sends on what it holds (partial seconds, batches of checks): every flush interval,
 * and live, also as soon as its partition has gone quiet. A monitor judges a record only once every
 * partition it waits for has reported progress past it, and a partition's progress stops at the
 * second it holds: under a steady stream the flush interval bounds that wait, but traffic that comes
 * in bursts is read in a few milliseconds and would then wait out the rest of the interval for
 * nothing. Quiet means a whole tick without a record while the consumer is not known to lag, so a
 * steady stream still goes out once a flush interval, in as few records as before.
 */
final class FlushSchedule {

    private final long flushMillis;
    private final boolean quietFlush;
    /** Wall time of the last flush; a quiet partition's counts as one. */
    private long flushedAt = Long.MIN_VALUE / 2;
    private boolean readSinceTick;
    private boolean readSinceFlush;

    FlushSchedule(IngestSettings settings) {
        this.flushMillis = settings.flushInterval().toMillis();
        this.quietFlush = !settings.tickInterval().equals(settings.flushInterval());
    }

    /** A record (of any kind) was read. */
    void read() {
        readSinceTick = true;
        readSinceFlush = true;
    }

    /**
     * A tick of the wall clock ({@link IngestSettings#tickInterval()}): whether to flush now.
     *
     * @param lagging the partition's consumer is known to have records not yet read (then it is not quiet)
     */
    boolean flushAt(long now, boolean lagging) {
        boolean quiet = quietFlush && readSinceFlush && !readSinceTick && !lagging;
        readSinceTick = false;
        if (!quietFlush || quiet || now - flushedAt >= flushMillis) {
            flushedAt = now;
            readSinceFlush = false;
            return true;
        }
        return false;
    }
}
