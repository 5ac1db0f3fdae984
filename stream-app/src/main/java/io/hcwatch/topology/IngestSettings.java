package io.hcwatch.topology;

import io.hcwatch.traffic.CardinalityLimits;
import java.time.Duration;

/**
 * How one source's ingest runs, from the settings and the run mode (live or replay).
 *
 * @param flushInterval  how often held summaries whose second is complete are sent on (wall clock)
 * @param sketchCapacity entries per heavy-hitter sketch in the per-second summaries
 * @param idleTimeout    wall time without a record after which this source's partition, holding
 *                       nothing, reports itself idle (zero in replay: idle whenever nothing is held)
 * @param delay          the source's expected delay (batches; zero in replay, where files are complete), see UpstreamClock
 * @param limits         how many target groups, targets, hosts and frontends a partition takes in
 * @param wholeSeconds   the flush sends on only seconds that ended before its time (replay, where that
 *                       time is the input's own and every second before it has been read in full)
 * @param quietFlush     live: a partition that has read nothing for this long, and is not known to lag,
 *                       sends on what it holds at once instead of at the next flush (zero: only the flush)
 */
public record IngestSettings(Duration flushInterval, int sketchCapacity, Duration idleTimeout, Duration delay,
                             CardinalityLimits.Limits limits, boolean wholeSeconds, Duration quietFlush) {

    /** Without a quiet flush (replay, and tests of the periodic flush alone). */
    public IngestSettings(Duration flushInterval, int sketchCapacity, Duration idleTimeout, Duration delay,
                          CardinalityLimits.Limits limits, boolean wholeSeconds) {
        this(flushInterval, sketchCapacity, idleTimeout, delay, limits, wholeSeconds, Duration.ZERO);
    }

    /** How often the ingest looks at the wall clock: the flush interval, or the quiet flush's when that is shorter. */
    public Duration tickInterval() {
        return tickInterval(flushInterval, quietFlush);
    }

    /** The ingest's tick for a flush interval and a quiet flush (zero: none). */
    public static Duration tickInterval(Duration flushInterval, Duration quietFlush) {
        return quietFlush.isZero() || quietFlush.compareTo(flushInterval) >= 0 ? flushInterval : quietFlush;
    }
}
