package io.hcwatch.alert;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Finding;
import java.util.List;

/**
 * One kind of monitor driven as the topology drives it per key, without Kafka: records with their
 * event times, and time passing. Tests of detection through the whole key lifecycle use it.
 */
public class MonitorHarness<S, I> {

    protected final KeyMonitor<S, I> monitor;

    public MonitorHarness(Detection<S, I> detection, Settings settings) {
        this.monitor = new KeyMonitor<>(detection, LifecycleSettings.from(settings), settings.millis("eval.step"));
    }

    public Monitored<S> newKey(String key, I first) {
        return monitor.newKey(key, first);
    }

    public List<Notification> feed(Monitored<S> m, I record, long time) {
        return monitor.apply(m, record, time);
    }

    public List<Notification> feedAll(Monitored<S> m, List<? extends I> records, long[] times) {
        return monitor.apply(m, records, times);
    }

    public List<Notification> reach(Monitored<S> m, long now) {
        return monitor.reach(m, now);
    }

    public List<Finding> findings(Monitored<S> m, long now) {
        return monitor.detection().judge(m.state, now);
    }
}
