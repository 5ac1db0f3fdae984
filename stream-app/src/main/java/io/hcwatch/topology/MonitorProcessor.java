package io.hcwatch.topology;

import io.hcwatch.alert.AlertFactory;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.incident.CausalRank;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.input.Payload;
import io.hcwatch.input.Progress;
import io.hcwatch.input.Telemetry;
import io.hcwatch.metrics.ClockGauges;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.time.TimeSettings;
import io.hcwatch.time.Upstreams;
import io.hcwatch.topology.state.NewerLayoutException;
import io.hcwatch.topology.state.ObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one kind of monitor over its keyed input: keeps each key's state in a write-behind
 * store, and lets the task's {@link MonitorClock} decide when each record reaches its key and
 * when evaluation steps run (the watermark over the upstreams' progress reports); turns the
 * lifecycle's notifications into alerts keyed by dedup_key. A key whose update throws is put back
 * as it was at the last commit and dead-lettered; a key whose stored state a newer release wrote is
 * left as stored and its records dead-lettered as that release's ({@link MonitorDeadLetters}); the
 * other keys and the clock go on.
 *
 * <p>Sends {@link MonitorOutput}s: alerts, and dead letters of what failed.
 *
 * @param <S> the state of one key
 * @param <I> the records one key takes in
 */
public final class MonitorProcessor<S, I> implements Processor<String, Envelope, String, MonitorOutput> {

    /** How often the wall clock is looked at (silent upstreams, silence); live only. */
    static final Duration WALL_TICK = Duration.ofMillis(250);
    private static final Logger LOG = LoggerFactory.getLogger(MonitorProcessor.class);

    private final MonitorKind<S, I> kind;
    private final String name;
    private final AlertFactory alerts;
    private final PipelineMetrics metrics;
    private final MonitorClock<Envelope> clock;
    private final boolean live;
    private final LateArrivals lateArrivals;
    private final Keys keys = new Keys();
    private final ClockGauges gauges;
    private final List<String> expectedUpstreams;
    private final MonitorDeadLetters deadLetters;
    private ProcessorContext<String, MonitorOutput> context;
    private ObjectStore<Monitored<S>> store;
    private ObjectStore<SavedClock.Entry> clockStore;

    /**
     * @param live              whether the wall clock matters: silent upstreams stop being waited for
     *                          after the idle timeout and time moves on when all input stops (off in
     *                          replay, where time is the input's alone)
     * @param expectedUpstreams the input partitions that pace this monitor, waited for from the start
     */
    public MonitorProcessor(MonitorKind<S, I> kind, AlertFactory alerts, PipelineMetrics metrics, ClockGauges gauges,
                            TimeSettings time, boolean live, List<String> expectedUpstreams) {
        this.kind = kind;
        this.gauges = gauges;
        this.expectedUpstreams = expectedUpstreams;
        this.name = kind.name();
        this.alerts = alerts;
        this.metrics = metrics;
        this.live = live;
        long graceMillis = time.grace().toMillis();
        this.lateArrivals = new LateArrivals(name, metrics, graceMillis);
        this.deadLetters = new MonitorDeadLetters(name, metrics);
        long silent = live ? time.silentTimeout().toMillis() : 0;
        this.clock = new MonitorClock<>(time.step().toMillis(), graceMillis, silent, (int) (silent / WALL_TICK.toMillis()),
                time.maxUpstreamLag().toMillis(), live ? time::upstreamDelayMillis : id -> 0, live && time.silence());
    }

    /** The store keeping a monitor's clock beside its keys' state. */
    public static String clockStore(String storeName) {
        return storeName + "-clock";
    }

    @Override
    public void init(ProcessorContext<String, MonitorOutput> context) {
        this.context = context;
        deadLetters.init(context);
        this.store = context.getStateStore(kind.store());
        this.clockStore = context.getStateStore(clockStore(kind.store()));
        // a key's records reach it in event-time order, and no held record is older than what its key took in
        SavedClock.restore(clockStore, clock, context.currentSystemTimeMs(), (key, time) -> {
            Monitored<S> m;
            try {
                m = store.get(key);
            } catch (RuntimeException unreadable) {
                // a key state this release refuses (a newer layout): the record stays held, and fails with its key
                return false;
            }
            return m != null && time <= m.time.lastInput;
        }, deadLetters);
        clock.expect(expectedUpstreams, context.currentSystemTimeMs());
        gauges.add(name, clock);
        if (live) {
            context.schedule(WALL_TICK, PunctuationType.WALL_CLOCK_TIME, wall -> {
                deadLetters.sendRefusedAtStart(wall);
                try {
                    clock.wallTick(wall, keys);
                } catch (RuntimeException e) {
                    deadLetters.failed(e, null, null, -1);
                }
                for (Upstreams.Silenced s : clock.upstreams().newlySilent(wall)) {
                    metrics.upstreamSilent(name);
                    LOG.warn("monitor {}: input partition {} sent no progress for {} s{}; not waited for from now on, so"
                            + " steps are judged without it and what it sends for them counts as behind (window.silent-timeout)",
                            name, s.id(), s.unheardMillis() / 1000, s.neverReported() ? " since this task started" : "");
                }
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
        deadLetters.sendRefusedAtStart(record.timestamp());
        try {
            envelope.payload().accept(new Payload.Cases<Void>() {
                @Override
                public Void telemetry(Telemetry telemetry) {
                    if (record.key() != null) {
                        clock.offer(record.key(), envelope, record.timestamp(), wall, keys);
                    }
                    return null;
                }

                @Override
                public Void progress(Progress progress) {
                    clock.report(envelope.upstream(), progress.eventTime(), progress.idle(), wall, keys);
                    return null;
                }

                @Override
                public Void fromNewerRelease(FromNewerRelease newerRecord) {
                    deadLetters.fromNewerRelease(newerRecord, record.key(), record.timestamp());
                    return null;
                }
            });
        } catch (RuntimeException e) {
            // not a key's update (those are caught in Keys): the clock's own
            deadLetters.failed(e, null, envelope, record.timestamp());
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
            try {
                applyTo(key, envelope, late);
            } catch (NewerLayoutException e) {
                // thrown reading the key's state, before anything changed: nothing to put back
                deadLetters.refusedState(e, key, envelope, time);
            } catch (RuntimeException e) {
                revert(key, e);
                deadLetters.failed(e, key, envelope, time);
            }
        }

        private void applyTo(String key, Envelope envelope, boolean late) {
            List<? extends Telemetry> parts = envelope.telemetry().parts();
            List<I> records = new ArrayList<>(parts.size());
            long[] times = new long[parts.size()];
            for (int i = 0; i < times.length; i++) {
                records.add(kind.taken(parts.get(i)));
                times[i] = parts.get(i).eventTime();
            }
            Monitored<S> m = store.getForUpdate(key, k -> kind.keys().newKey(k, records.get(0)));
            // still applied: per-target state ignores what is older than it knows, and the windows drop
            // what is older than they cover
            lateArrivals.count(times, late, clock.watermark(), clock.lastStep());
            emit(kind.keys().apply(m, records, times));
            kind.changed().accept(key, m);
        }

        @Override
        public void held(MonitorClock.Held<Envelope> h) {
            clockStore.put(SavedClock.heldKey(h), new SavedClock.HeldRecord(h));
        }

        @Override
        public void released(MonitorClock.Held<Envelope> h) {
            clockStore.deleteAfterNextCommit(SavedClock.heldKey(h));
        }

        @Override
        public void step(long at) {
            store.forEach((key, m) -> {
                if (at > m.time.clock) {
                    try {
                        emit(kind.keys().reach(m, at));
                        store.markChanged(key);
                        kind.changed().accept(key, m);
                    } catch (RuntimeException e) {
                        revert(key, e);
                        deadLetters.failed(e, key, null, at);
                    }
                }
                if (kind.keys().forgettable(m, at)) {
                    // a tombstone in the changelog: a key that stopped sending costs nothing after a restore either
                    store.delete(key);
                    metrics.forgotten(name);
                    kind.changed().accept(key, null);
                }
            });
        }
    }

    /** Puts the key back as committed; a state that cannot even be read back (a newer layout) stays as stored. */
    private void revert(String key, RuntimeException cause) {
        try {
            store.revert(key);
        } catch (RuntimeException unreadable) {
            cause.addSuppressed(unreadable);
        }
    }

    /** Sends one key's notifications, those of one event time cause first ({@link CausalRank#ORDER}). */
    private void emit(List<Notification> notifications) {
        for (Alert alert : CausalRank.inOrder(notifications.stream().map(alerts::toAlert).toList())) {
            metrics.alert(alert.getType(), alert.getSeverity().name(), alert.getStatus().name());
            context.forward(new Record<>(alert.getDedupKey(), new MonitorOutput.Raised(alert), alert.getEventTime().toEpochMilli()));
        }
    }
}
