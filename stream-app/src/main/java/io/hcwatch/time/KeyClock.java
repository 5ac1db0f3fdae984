package io.hcwatch.time;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * One monitored key's time (a target group, an HAProxy host, a client scope): the newest event
 * time it has taken in, and the last evaluation step it ran. Steps fall at multiples of the step
 * length; a key runs every step its time passes, in order with its records (a record at time t
 * runs the steps up to t first), so the same records always give the same steps. Its monitor's
 * {@link MonitorClock} decides when records reach the key; this only keeps the key's side.
 */
public final class KeyClock {

    /** Newest event time this key has taken in or been stepped to; 0 before its first record. */
    public long clock;
    /** The last evaluation step this key ran; 0 before its first step. */
    public long lastStep;
    /**
     * Newest event time of a record this key took in (steps do not move it): how long the key has
     * been idle. 0 in state written before it was kept, until the key's next record or step.
     */
    public long lastInput;

    public KeyClock() {
    }

    /**
     * Time reaches {@code time} for this key: every step due in (lastStep, time] runs, oldest
     * first, through {@code step}; the key's clock then stands at least at {@code time}. A new key
     * starts counting at the step boundary before its first time, without running a step.
     */
    public <N> List<N> reach(long time, long stepMillis, LongFunction<List<N>> step) {
        List<N> out = new ArrayList<>();
        if (lastStep == 0) {
            lastStep = EvaluationSteps.floor(Math.max(clock, time), stepMillis);
        } else {
            for (long at : EvaluationSteps.due(lastStep, time, stepMillis)) {
                lastStep = at;
                out.addAll(step.apply(at));
            }
        }
        clock = Math.max(clock, time);
        return out;
    }

    /** A record at {@code time} reached this key. */
    public void input(long time) {
        lastInput = Math.max(lastInput, time);
    }

    /**
     * Whether nothing has reached this key for {@code idleMillis} of event time at {@code now}
     * (never when {@code idleMillis} is 0). A key restored without {@link #lastInput} starts its idle time now.
     */
    public boolean idle(long now, long idleMillis) {
        if (lastInput == 0) {
            lastInput = now;
        }
        return idleMillis > 0 && now - lastInput >= idleMillis;
    }

    public boolean started() {
        return clock > 0;
    }
}
