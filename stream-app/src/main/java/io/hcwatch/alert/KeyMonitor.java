package io.hcwatch.alert;

import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Finding;
import java.util.ArrayList;
import java.util.List;

/**
 * One kind of monitor for one key at a time: brings the key's time to each record (running the
 * evaluation steps it passes), hands the record to the detection, judges what holds and lets
 * the lifecycle decide what to send. The same for target groups, HAProxy hosts and client
 * scopes; the monitor's clock (io.hcwatch.time.MonitorClock) decides when records and steps come.
 */
public final class KeyMonitor<S, I> {

    private final Detection<S, I> detection;
    private final LifecycleSettings lifecycle;
    private final long stepMillis;
    private final long idleMillis;

    public KeyMonitor(Detection<S, I> detection, LifecycleSettings lifecycle, long stepMillis) {
        this(detection, lifecycle, stepMillis, 0);
    }

    /**
     * @param idleMillis a key that has taken in nothing for this long (event time) is idle: nothing
     *                   its detectors last concluded is held any more, so its alerts resolve through
     *                   the lifecycle, and then it may be forgotten ({@link #forgettable}); 0: never
     */
    public KeyMonitor(Detection<S, I> detection, LifecycleSettings lifecycle, long stepMillis, long idleMillis) {
        this.detection = detection;
        this.lifecycle = lifecycle;
        this.stepMillis = stepMillis;
        this.idleMillis = idleMillis;
    }

    public Detection<S, I> detection() {
        return detection;
    }

    public Monitored<S> newKey(String key, I first) {
        return new Monitored<>(detection.newState(key, first));
    }

    /** One record at event time {@code time}. */
    public List<Notification> apply(Monitored<S> m, I record, long time) {
        return apply(m, List.of(record), new long[] {time});
    }

    /**
     * Records read together, in order (a batch of one second's checks): each is applied and
     * runs the steps it reaches; what holds is judged after the last, and after any record that
     * changed a target's standing: how a batch was cut (the ingest sends a second in parts live,
     * whole in replay) must not decide whether a finding that held between two records was seen.
     */
    public List<Notification> apply(Monitored<S> m, List<? extends I> records, long[] times) {
        List<Notification> out = new ArrayList<>();
        int last = records.size() - 1;
        for (int i = 0; i <= last; i++) {
            out.addAll(reach(m, times[i]));
            m.time.input(times[i]);
            if (detection.apply(m.state, records.get(i), m.time.clock) && i < last) {
                judge(m, out);
            }
        }
        judge(m, out);
        return out;
    }

    private void judge(Monitored<S> m, List<Notification> out) {
        long now = m.time.clock;
        List<Finding> findings = detection.judge(m.state, now);
        m.latest = findings;
        out.addAll(m.alerts.observe(findings, now, lifecycle));
    }

    /**
     * Whether the key can be deleted at {@code now}: idle, no alert open, and no alert history left
     * (the lifecycle forgets it two days after the last resolve; until then a returning key must
     * count its episodes on, so their alert ids stay distinct).
     */
    public boolean forgettable(Monitored<S> m, long now) {
        return idleMillis > 0 && m.time.idle(now, idleMillis) && m.alerts.episodes.isEmpty() && m.alerts.history.isEmpty();
    }

    /** The key's time reaches {@code now}: every evaluation step up to it runs, oldest first. */
    public List<Notification> reach(Monitored<S> m, long now) {
        return m.time.reach(now, stepMillis, at -> {
            detection.step(m.state, at);
            List<Finding> findings = m.time.idle(at, idleMillis) ? List.of() : detection.judge(m.state, at);
            m.latest = findings;
            List<Notification> sent = m.alerts.step(findings, at, lifecycle);
            detection.stepped(m.state, at);
            return sent;
        });
    }
}
