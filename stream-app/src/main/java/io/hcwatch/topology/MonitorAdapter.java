package io.hcwatch.topology;

import io.hcwatch.alert.Notification;
import io.hcwatch.time.KeyClock;
import java.util.List;

/** What {@link MonitorProcessor} needs to know about one kind of monitor and its per-key state. */
public interface MonitorAdapter<S> {

    /** A short name for metrics and store names: fleet, host or flood. */
    String name();

    S newState(String key, Envelope first);

    /** One record reaches its key: the steps due before it run, then the record, then what holds is judged. */
    List<Notification> apply(S state, Envelope envelope);

    /** Time reaches {@code now} for this key without a record of its own: the steps due up to it run. */
    List<Notification> reach(S state, long now);

    KeyClock clock(S state);

    /** Called after every change, e.g. to update gauges. */
    default void changed(String key, S state) {
    }
}
