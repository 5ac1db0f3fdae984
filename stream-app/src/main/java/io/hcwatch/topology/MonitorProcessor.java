package io.hcwatch.topology;

import io.hcwatch.alert.AlertFactory;
import io.hcwatch.alert.KeyMonitor;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.UpstreamProgress;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.metrics.ClockGauges;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.time.TimeSettings;
import io.hcwatch.topology.state.WriteBehindStore;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Runs one kind of monitor over its keyed input: keeps each key's state in a write-behind
 * store, and lets the task's {@link MonitorClock} decide when each record reaches its key and
 * when evaluation steps run (the watermark over the upstreams' progress reports); turns the
 * lifecycle's notifications into alerts keyed by dedup_key.
 */
public final class MonitorProcessor<S> implements Processor<String, Envelope, String, Alert> {

    /** How often the wall clock is looked at (silent upstreams, silence); live only. */
    static final Duration WALL_TICK = Duration.ofMillis(250);

    private final String name;
    private final KeyMonitor<S> monitor;
    private final BiConsumer<String, Monitored<S>> changed;
    private final String storeName;
    private final AlertFactory alerts;
    private final PipelineMetrics metrics;
    private final MonitorClock<Envelope> clock;
    private final boolean live;
    private final long graceMillis;
    private final Keys keys = new Keys();
    private final ClockGauges gauges;
    private final List<String> expectedUpstreams;
    private ProcessorContext<String, Alert> context;
    private WriteBehindStore<Monitored<S>> store;
    private WriteBehindStore<SavedClock.Entry> clockStore;

    /**
     * @param live whether the wall clock matters: silent upstreams stop being waited for after the
     *             idle timeout and time moves on when all input stops (off in replay, where time is
     *             the input's alone)
     */
    /**
     * @param name    fleet, host or flood: for metrics
     * @param changed           told of every key after it changed (gauges), with null when the key was deleted
     * @param expectedUpstreams the input partitions that pace this monitor, waited for from the start
     */
    public MonitorProcessor(String name, KeyMonitor<S> monitor, BiConsumer<String, Monitored<S>> changed, String storeName,
                            AlertFactory alerts, PipelineMetrics metrics, ClockGauges gauges, TimeSettings time, boolean live,
                            List<String> expectedUpstreams) {
        this.gauges = gauges;
        this.expectedUpstreams = expectedUpstreams;
        this.name = name;
        this.monitor = monitor;
        this.changed = changed;
        this.storeName = storeName;
        this.alerts = alerts;
        this.metrics = metrics;
        this.live = live;
        this.graceMillis = time.grace().toMillis();
        long silent = live ? time.silentTimeout().toMillis() : 0;
        this.clock = new MonitorClock<>(time.step().toMillis(), graceMillis, silent, (int) (silent / WALL_TICK.toMillis()),
                time.maxUpstreamLag().toMillis(), live ? time::upstreamDelayMillis : id -> 0, live && time.silence());
    }

    /** The store keeping a monitor's clock beside its keys' state. */
    public static String clockStore(String storeName) {
        return storeName + "-clock";
    }

    @Override
    public void init(ProcessorContext<String, Alert> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        this.clockStore = context.getStateStore(clockStore(storeName));
        SavedClock.restore(clockStore, clock, context.currentSystemTimeMs());
        clock.expect(expectedUpstreams, context.currentSystemTimeMs());
        gauges.add(name, clock);
        if (live) {
            context.schedule(WALL_TICK, PunctuationType.WALL_CLOCK_TIME, wall -> {
                clock.wallTick(wall, keys);
                clockStore.markChanged(SavedClock.HEADER);
            });
        }
    }

    @Override
    public void process(Record<String, Envelope> record) {
        Envelope envelope = record.value();
        if (envelope == null) {
            return;
        }
        long wall = context.currentSystemTimeMs();
        if (envelope.isProgress()) {
            UpstreamProgress p = (UpstreamProgress) envelope.record();
            clock.report(envelope.upstream(), p.getTime(), p.getIdle(), wall, keys);
        } else if (record.key() != null) {
            clock.offer(record.key(), envelope, record.timestamp(), wall, keys);
        }
        clockStore.markChanged(SavedClock.HEADER);
    }

    @Override
    public void close() {
        gauges.remove(name, clock);
    }

    /** The monitor's keys, as the clock drives them. */
    private final class Keys implements MonitorClock.Stage<Envelope> {

        @Override
        public void apply(String key, Envelope envelope, long time, boolean late) {
            List<?> records = envelope.records();
            Monitored<S> m = store.getForUpdate(key, k -> monitor.newKey(k, records.get(0)));
            if (late) {
                // counted, still applied: per-target state ignores what is older than it knows, and the
                // windows drop what is older than they cover
                long lateBefore = clock.watermark() - graceMillis;
                for (long t : EventTimes.each(envelope)) {
                    if (t < lateBefore) {
                        metrics.late(name);
                    }
                }
            }
            emit(monitor.apply(m, records, EventTimes.each(envelope)));
            changed.accept(key, m);
        }

        @Override
        public void held(MonitorClock.Held<Envelope> h) {
            clockStore.put(SavedClock.heldKey(h), new SavedClock.HeldRecord(h));
        }

        @Override
        public void released(MonitorClock.Held<Envelope> h) {
            clockStore.delete(SavedClock.heldKey(h));
        }

        @Override
        public void step(long at) {
            store.forEach((key, m) -> {
                if (at > m.time.clock) {
                    emit(monitor.reach(m, at));
                    store.markChanged(key);
                    changed.accept(key, m);
                }
                if (monitor.forgettable(m, at)) {
                    // a tombstone in the changelog: a key that stopped sending costs nothing after a restore either
                    store.delete(key);
                    metrics.forgotten(name);
                    changed.accept(key, null);
                }
            });
        }
    }

    private void emit(List<Notification> notifications) {
        for (Notification n : notifications) {
            Alert alert = alerts.toAlert(n);
            metrics.alert(alert.getType(), alert.getSeverity().name(), alert.getStatus().name());
            context.forward(new Record<>(alert.getDedupKey(), alert, n.eventTime()));
        }
    }
}
