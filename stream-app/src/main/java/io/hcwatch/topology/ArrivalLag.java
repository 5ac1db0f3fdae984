package io.hcwatch.topology;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long after their events one input partition's records reach Kafka, over the last few
 * minutes of arrivals: the lag of each record read (its arrival less its event time), kept as
 * whole seconds per minute of arrival, so memory follows the spread of lags, not the record rate.
 * A source whose median lag stays above the threshold for a whole window arrives late by nature
 * (ALB's logs from S3: 5-minute objects, minutes after their events), which the time model must
 * be told ({@code window.source-delay}); a single late record, or a backlog read after downtime
 * (its records arrived in time, they were only read late), is not.
 *
 * <p>Arrival is the record's Kafka timestamp when its producer set one (the time it was sent, or
 * the broker's append time), so a consumer catching up does not look like late input; the wall
 * clock at read otherwise.
 */
public final class ArrivalLag {

    private static final long MINUTE = 60_000;
    /** Lags are counted in whole seconds up to a day; longer ones count as a day. */
    private static final long MAX_LAG_SECONDS = 86_400;

    private final long windowMillis;
    private final long thresholdMillis;
    private final int minRecords;
    /** Per minute of arrival (oldest first): records by lag in seconds. */
    private final Deque<Minute> minutes = new ArrayDeque<>();
    private long firstArrival = Long.MIN_VALUE;
    /**
     * Records of the newest minute with the same lag as the one before, not yet counted in its map:
     * a source read as it happens has the same lag record after record, and this runs on every
     * record an ingest reads, so a map update per record would cost more than the record's parse.
     */
    private long runLagSeconds = -1;
    private long runCount;

    private record Minute(long start, TreeMap<Long, Long> bySecond) {
    }

    /** What the window says at one time: median and longest lag of the records in it (-1: none), and the verdict. */
    public record Verdict(long medianMillis, long maxMillis, long records, boolean batched) {
    }

    /**
     * @param window     how far back arrivals count, and how long the partition must have been read before it is judged
     * @param threshold  a median lag above it is late by nature
     * @param minRecords fewer records in the window say nothing
     */
    public ArrivalLag(java.time.Duration window, java.time.Duration threshold, int minRecords) {
        if (window.toMillis() < MINUTE) {
            throw new IllegalArgumentException("window must be at least a minute: " + window);
        }
        this.windowMillis = window.toMillis();
        this.thresholdMillis = threshold.toMillis();
        this.minRecords = minRecords;
    }

    /** The arrival to count for a record: its Kafka timestamp, unless it has none or it lies ahead of the wall clock. */
    public static long arrival(long recordTimestamp, long wallNow) {
        return recordTimestamp >= 0 && recordTimestamp <= wallNow ? recordTimestamp : wallNow;
    }

    /** A record with event time {@code eventTime} arrived at {@code arrivedAt}. */
    public void arrived(long eventTime, long arrivedAt) {
        if (firstArrival == Long.MIN_VALUE) {
            firstArrival = arrivedAt;
        }
        long start = Math.floorDiv(arrivedAt, MINUTE) * MINUTE;
        Minute last = minutes.peekLast();
        if (last == null || last.start < start) {
            countRun();
            last = new Minute(start, new TreeMap<>());
            minutes.addLast(last);
        }
        // an arrival older than the newest minute (a producer's clock behind another's) counts in the newest
        long lagSeconds = Math.min(MAX_LAG_SECONDS, Math.max(0, arrivedAt - eventTime) / 1000);
        if (lagSeconds != runLagSeconds) {
            countRun();
            runLagSeconds = lagSeconds;
        }
        runCount++;
    }

    /** Counts the run of equal lags in the newest minute's map. */
    private void countRun() {
        if (runCount > 0) {
            minutes.peekLast().bySecond.merge(runLagSeconds, runCount, Long::sum);
        }
        runCount = 0;
        runLagSeconds = -1;
    }

    /** The last window's lags as of {@code now}: minutes that have left the window are dropped. */
    public Verdict judge(long now) {
        countRun();
        long from = now - windowMillis;
        while (!minutes.isEmpty() && minutes.peekFirst().start + MINUTE <= from) {
            minutes.removeFirst();
        }
        TreeMap<Long, Long> all = new TreeMap<>();
        long records = 0;
        for (Minute m : minutes) {
            for (Map.Entry<Long, Long> e : m.bySecond.entrySet()) {
                all.merge(e.getKey(), e.getValue(), Long::sum);
                records += e.getValue();
            }
        }
        if (records == 0) {
            return new Verdict(-1, -1, 0, false);
        }
        long median = -1;
        long seen = 0;
        for (Map.Entry<Long, Long> e : all.entrySet()) {
            seen += e.getValue();
            if (2 * seen >= records) {
                median = e.getKey() * 1000;
                break;
            }
        }
        long max = all.lastKey() * 1000;
        boolean watchedLongEnough = now - firstArrival >= windowMillis;
        return new Verdict(median, max, records, watchedLongEnough && records >= minRecords && median > thresholdMillis);
    }
}
