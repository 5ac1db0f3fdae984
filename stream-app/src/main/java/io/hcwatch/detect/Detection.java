package io.hcwatch.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * What one kind of monitor does with its key's state: takes in its records, keeps it at each
 * evaluation step (ageing out, history), and judges it with its detectors. Nothing about time
 * passing (the monitor's clock decides when records and steps come) nor about alerts (the
 * lifecycle turns findings into them).
 *
 * @param <S> the per-key state
 * @param <I> the records this kind of monitor takes in (a sealed family of io.hcwatch.input)
 */
public interface Detection<S, I> {

    /** The state of a key seen for the first time, with the record that brought it. */
    S newState(String key, I first);

    /**
     * One record, at the key's time {@code now} (the record's own time or later).
     *
     * @return whether the record changed what findings rest on at once (a target changed state,
     *         joined or left): then what holds is judged at its time, before the next record of
     *         its batch, as if it had come alone; otherwise once, after the batch
     */
    boolean apply(S state, I record, long now);

    /** An evaluation step at {@code at}, before it is judged. */
    default void step(S state, long at) {
    }

    /** After the step at {@code at} was judged. */
    default void stepped(S state, long at) {
    }

    List<Detector<S>> detectors();

    /** Every finding of every detector at {@code now}. */
    default List<Finding> judge(S state, long now) {
        List<Finding> all = new ArrayList<>();
        for (Detector<S> d : detectors()) {
            all.addAll(d.judge(state, now));
        }
        return all;
    }
}
