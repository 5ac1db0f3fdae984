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
 */
public record IngestSettings(Duration flushInterval, int sketchCapacity, Duration idleTimeout, Duration delay,
                             CardinalityLimits.Limits limits, boolean wholeSeconds) {
}
