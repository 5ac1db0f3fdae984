package io.hcwatch.topology;

import io.hcwatch.alert.Notification;
import java.util.List;

/** What {@link MonitorProcessor} needs to know about one kind of monitor and its per-key state. */
public interface MonitorAdapter<S> {

    /** A short name for metrics and store names: fleet, host or flood. */
    String name();

    S newState(String key, Envelope first);

    boolean isLate(S state, long eventTime);

    List<Notification> apply(S state, Envelope envelope);

    /** No input at all for a while: time passes for every key (the wall clock extrapolates it). */
    List<Notification> onTime(S state, long now);

    /** Stream time moved on through other keys' records; by default the same as {@link #onTime}. */
    default List<Notification> onStreamTime(S state, long now) {
        return onTime(state, now);
    }

    long clock(S state);

    /** Called after every change, e.g. to update gauges. */
    default void changed(String key, S state) {
    }
}
