package io.hcwatch.time;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/**
 * The time of one monitor task (the fleet, host or flood monitor over its share of keys), the one
 * place where time advances for detection.
 *
 * <p>Records reach a monitor from many upstreams (input partitions), each read at its own pace:
 * after downtime, or with several threads and instances, one partition can be read minutes of
 * event time ahead of another. Judging each record as it arrives would count targets that failed
 * together as if they had failed minutes apart. So the monitor keeps a watermark, the event time
 * every upstream worth waiting for has reported reaching ({@link Upstreams}), holds records above
 * it, and when it advances, hands the held records to their keys in event-time order, interleaved
 * with the evaluation steps (multiples of the step length) it passes. Whatever the interleaving of
 * partitions, every key then sees its records and steps in the same order: the alerts of a live
 * run are those of a replay of the same input. A record at or below the watermark is applied at
 * once (counted late when older than the watermark minus the grace period).
 *
 * <p>When no upstream is worth waiting for (all idle or silent), records are applied as they come,
 * and, in live mode, once the watermark has stood still for a step of wall time, it moves on with
 * the wall clock, so that silent targets age out and alerts resolve when telemetry stops.
 *
 * @param <E> what a record carries to its key
 */
public final class MonitorClock<E> {

    /** What the clock drives: the monitor's keys. */
    public interface Stage<E> {
        /** A record reaches its key; {@code late} when it is older than the watermark minus the grace period. */
        void apply(String key, E event, long time, boolean late);

        /** An evaluation step at {@code at}: every key steps to it. */
        void step(long at);

        /** A record is held above the watermark (for the changelog: it exists nowhere else once its offset is committed). */
        default void held(Held<E> h) {
        }

        /** A held record has been handed to its key. */
        default void released(Held<E> h) {
        }
    }

    /** A record waiting for the watermark. */
    public record Held<E>(String key, E event, long time, long seq) {
    }

    private static final Comparator<Held<?>> ORDER = Comparator.<Held<?>>comparingLong(Held::time).thenComparingLong(Held::seq);

    private final long stepMillis;
    private final long graceMillis;
    private final boolean silenceClock;
    private final Upstreams upstreams;
    private final PriorityQueue<Held<E>> held = new PriorityQueue<>(ORDER);
    private long seq;
    private long watermark = Long.MIN_VALUE;
    private long lastStep = Long.MIN_VALUE;
    private long wallAtWatermark;

    /**
     * @param silentTimeoutMillis wall time after which an upstream that stopped reporting is not waited for (0: never, for replay)
     * @param silenceClock      whether the watermark moves with the wall clock when every upstream is quiet (live only)
     */
    public MonitorClock(long stepMillis, long graceMillis, long silentTimeoutMillis, long maxLagMillis, boolean silenceClock) {
        this(stepMillis, graceMillis, silentTimeoutMillis, 0, maxLagMillis, silenceClock);
    }

    /** @param silentTicks wall ticks that must also pass before a silent upstream is no longer waited for (see Upstreams) */
    public MonitorClock(long stepMillis, long graceMillis, long silentTimeoutMillis, int silentTicks, long maxLagMillis,
                        boolean silenceClock) {
        this(stepMillis, graceMillis, silentTimeoutMillis, silentTicks, maxLagMillis, id -> 0, silenceClock);
    }

    /** @param delayMillis each upstream's expected delay, by upstream id (see {@link UpstreamClock}) */
    public MonitorClock(long stepMillis, long graceMillis, long silentTimeoutMillis, int silentTicks, long maxLagMillis,
                        ToLongFunction<String> delayMillis, boolean silenceClock) {
        this.stepMillis = stepMillis;
        this.graceMillis = graceMillis;
        this.silenceClock = silenceClock;
        this.upstreams = new Upstreams(silentTimeoutMillis, silentTicks, maxLagMillis, delayMillis);
    }

    /** A record for {@code key} at event time {@code time}: applied now, or held until the watermark reaches it. */
    public void offer(String key, E event, long time, long wallNow, Stage<E> stage) {
        if (time <= watermark) {
            stage.apply(key, event, time, time < watermark - graceMillis);
        } else if (!upstreams.anyActive(wallNow) && held.isEmpty()) {
            // nothing to wait for: time moves with the records themselves
            moveTo(time, wallNow, stage);
            stage.apply(key, event, time, false);
        } else {
            Held<E> h = new Held<>(key, event, time, seq++);
            held.add(h);
            stage.held(h);
        }
    }

    /** An upstream reports that it has sent everything up to {@code time} (and whether it has gone idle). */
    public void report(String upstream, long time, boolean idle, long wallNow, Stage<E> stage) {
        upstreams.report(upstream, time, idle, wallNow);
        moveTo(upstreams.watermark(wallNow), wallNow, stage);
    }

    /**
     * The wall clock ticks (live only): upstreams silent for too long stop holding the watermark,
     * and when nothing is active and the watermark has stood still for a step, it moves with the wall.
     */
    public void wallTick(long wallNow, Stage<E> stage) {
        upstreams.tick();
        moveTo(upstreams.watermark(wallNow), wallNow, stage);
        if (silenceClock && watermark != Long.MIN_VALUE && held.isEmpty() && !upstreams.anyActive(wallNow)
                && wallNow - wallAtWatermark >= stepMillis) {
            moveTo(watermark + (wallNow - wallAtWatermark), wallNow, stage);
        }
    }

    /** Upstreams that exist and are to be waited for before they have reported (see Upstreams#expect). */
    public void expect(Iterable<String> upstreamIds, long wallNow) {
        for (String id : upstreamIds) {
            upstreams.expect(id, wallNow);
        }
    }

    /** Moves the watermark to {@code target}: held records and passed steps, in event-time order. */
    private void moveTo(long target, long wallNow, Stage<E> stage) {
        if (target == Long.MIN_VALUE || target <= watermark) {
            return;
        }
        if (lastStep == Long.MIN_VALUE) {
            lastStep = EvaluationSteps.floor(held.isEmpty() ? target : Math.min(held.peek().time(), target), stepMillis);
        }
        // a step at time b runs before records at b, as each key runs the steps up to a record's time first.
        // Steps are capped (EvaluationSteps.MAX_CATCH_UP) only over a span without held records: after a
        // watermark held back for minutes, every step between the records it held still runs, or an
        // incident they carry would be applied at once and judged only after it had passed
        while (true) {
            long upTo = held.isEmpty() || held.peek().time() > target ? target : held.peek().time();
            for (long at : EvaluationSteps.due(lastStep, upTo, stepMillis)) {
                release(at - 1, stage);
                lastStep = at;
                stage.step(at);
            }
            release(upTo, stage);
            if (upTo == target) {
                break;
            }
        }
        watermark = target;
        wallAtWatermark = wallNow;
    }

    private void release(long upTo, Stage<E> stage) {
        while (!held.isEmpty() && held.peek().time() <= upTo) {
            Held<E> h = held.poll();
            stage.released(h);
            stage.apply(h.key(), h.event(), h.time(), false);
        }
    }

    public long watermark() {
        return watermark;
    }

    public int heldCount() {
        return held.size();
    }

    /** The held records in release order, for the changelog. */
    public List<Held<E>> held() {
        List<Held<E>> out = new ArrayList<>(held);
        out.sort(ORDER);
        return out;
    }

    public Upstreams upstreams() {
        return upstreams;
    }

    public long lastStep() {
        return lastStep;
    }

    /**
     * Puts back what a previous run saved: the watermark, the last step, the upstreams' reports and
     * the held records. A held record at or below the saved watermark was released by that run but
     * its key's state did not reach the changelog (the run stopped in the middle of a commit, and
     * the record's tombstone waits a commit longer than the state it fed: WriteBehindStore
     * #deleteAfterNextCommit); so the watermark goes back to just below the oldest one, and they are
     * released again in order, before anything newer reaches their keys.
     */
    public void restore(long savedWatermark, long savedLastStep, Map<String, Upstreams.Upstream> reports,
                        List<Held<E>> savedHeld, long wallNow) {
        long oldestHeld = savedHeld.stream().mapToLong(Held::time).min().orElse(Long.MAX_VALUE);
        watermark = oldestHeld <= savedWatermark ? oldestHeld - 1 : savedWatermark;
        lastStep = savedLastStep;
        wallAtWatermark = wallNow;
        upstreams.restore(reports, wallNow);
        held.clear();
        held.addAll(savedHeld);
        seq = savedHeld.stream().mapToLong(Held::seq).max().orElse(-1) + 1;
    }
}
