package io.hcwatch.topology;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.Check;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.Summary;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.traffic.TrafficCombiner;
import java.util.List;

/**
 * Holds what one input partition sums per second (traffic summaries, health checks in batches per
 * target group) until its second is over, in the pending store, so a restart sends them on.
 * When a record of a newer second arrives every older second is released, oldest first; a batch
 * that is full is released at once; a wall-clock flush releases the rest.
 */
final class Summarising {

    static final String PENDING_KEY = "pending";

    /** Where released seconds go. */
    interface Release {
        void summary(Summary summary);

        /** Health checks of one target group, in the order they were read. */
        void checks(List<HealthCheckResult> batch);
    }

    private final ObjectStore<TrafficCombiner> pending;
    private final int sketchCapacity;
    private final Release release;
    private final Runnable secondReleased;
    private TrafficCombiner combiner;
    private long newestSecond = Long.MIN_VALUE;

    /**
     * @param sketchCapacity entries per heavy-hitter sketch in the summaries
     * @param secondReleased told when a record's newer second released the older ones
     */
    Summarising(ObjectStore<TrafficCombiner> pending, int sketchCapacity, Release release, Runnable secondReleased) {
        this.pending = pending;
        this.sketchCapacity = sketchCapacity;
        this.release = release;
        this.secondReleased = secondReleased;
        this.combiner = pending.get(PENDING_KEY);
    }

    void add(AlbTrafficLine line) {
        combine(line.time()).addAlb(line);
        pending.markChanged(PENDING_KEY);
    }

    void add(HaproxyLine line) {
        combine(line.eventTime()).addHaproxy(line.request());
        pending.markChanged(PENDING_KEY);
    }

    void add(Check check) {
        List<HealthCheckResult> full = combine(check.eventTime()).addCheck(check.result());
        pending.markChanged(PENDING_KEY);
        if (full != null) {
            release.checks(full);
        }
    }

    /** What a newer release left in the pending store, which this one cannot read: taken once, to dead-letter. */
    List<FromNewerRelease> takeFromNewerRelease() {
        return combiner == null ? List.of() : combiner.takeFromNewerRelease();
    }

    /** Start of the oldest second still held; Long.MAX_VALUE when none is. */
    long oldestHeld() {
        return combiner == null ? Long.MAX_VALUE : combiner.oldestHeld();
    }

    /** The combiner, after releasing every second older than the one {@code eventTime} falls in. */
    private TrafficCombiner combine(long eventTime) {
        if (combiner == null) {
            combiner = pending.getForUpdate(PENDING_KEY, k -> new TrafficCombiner(sketchCapacity));
        }
        long second = Math.floorDiv(eventTime, 1000) * 1000;
        if (second > newestSecond) {
            if (newestSecond != Long.MIN_VALUE) {
                releaseBefore(second);
                secondReleased.run();
            }
            newestSecond = second;
        }
        return combiner;
    }

    /** Releases every check batch and summary whose second started before {@code before}. */
    void releaseBefore(long before) {
        if (combiner == null || combiner.isEmpty()) {
            return;
        }
        releaseChecks(combiner.drainChecksBefore(before));
        List<Summary> summaries = combiner.drainBefore(before);
        if (summaries.isEmpty()) {
            return;
        }
        pending.markChanged(PENDING_KEY);
        summaries.forEach(release::summary);
    }

    /** Releases every check batch held, whatever its second: a record that must not overtake them comes next. */
    void releaseChecks() {
        if (combiner != null) {
            releaseChecks(combiner.drainChecksBefore(Long.MAX_VALUE));
        }
    }

    private void releaseChecks(List<List<HealthCheckResult>> batches) {
        if (!batches.isEmpty()) {
            pending.markChanged(PENDING_KEY);
            batches.forEach(release::checks);
        }
    }
}
