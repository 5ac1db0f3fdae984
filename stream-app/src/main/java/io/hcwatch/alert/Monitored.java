package io.hcwatch.alert;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.hcwatch.detect.Finding;
import io.hcwatch.time.KeyClock;
import java.util.List;

/**
 * Everything kept for one monitored key, as its store holds it: its time, its detectors' state
 * and its alerts. The three parts are owned by three layers (the clock, the detection, the
 * lifecycle), so none of them holds another.
 *
 * @param <S> the detection's state for this kind of key
 */
public final class Monitored<S> {

    public KeyClock time = new KeyClock();
    public S state;
    public AlertBook alerts = new AlertBook();
    /** What held at the latest judgement (for gauges); not kept across restarts. */
    @JsonIgnore
    public List<Finding> latest = List.of();
    /**
     * What the store's encoder keeps of this key between commits, to skip encoding the parts that
     * did not change (the store's own, opaque here); never stored, and rebuilt after a restart.
     */
    @JsonIgnore
    public transient Object encoded;

    public Monitored() {
    }

    public Monitored(S state) {
        this.state = state;
    }
}
