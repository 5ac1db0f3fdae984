package io.hcwatch.time;

import java.util.ArrayList;
import java.util.List;

/**
 * The evaluation steps (multiples of the step length in event time) that fall due when a
 * monitor's clock moves from its last step to {@code until}. After a long gap only the latest
 * few are returned: hours of empty steps would change nothing but cost time.
 */
public final class EvaluationSteps {

    static final int MAX_CATCH_UP = 12;

    private EvaluationSteps() {
    }

    /** Step times in (lastStep, until]; empty when none is due. {@code lastStep} 0 means never stepped. */
    public static List<Long> due(long lastStep, long until, long step) {
        List<Long> out = new ArrayList<>();
        if (lastStep == 0) {
            return out;
        }
        long next = lastStep + step;
        if (next > until) {
            return out;
        }
        long last = Math.floorDiv(until, step) * step;
        if ((last - next) / step >= MAX_CATCH_UP) {
            next = last - (MAX_CATCH_UP - 1) * step;
        }
        for (long at = next; at <= last; at += step) {
            out.add(at);
        }
        return out;
    }

    /**
     * Once time has reached {@code time} at or past {@code due}, the next time due: one catch-up
     * however many steps were skipped, on the same phase as {@code due} (as Kafka Streams schedules
     * its punctuations).
     */
    public static long nextDue(long time, long due, long step) {
        return time - Math.floorMod(time - due, step) + step;
    }

    /** The step boundary at or before {@code ts}: where a new monitor starts counting. */
    public static long floor(long ts, long step) {
        return Math.floorDiv(ts, step) * step;
    }
}
