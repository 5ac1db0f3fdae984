package io.hcwatch.topology;

import io.hcwatch.alert.AlertFactory;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.detect.EvaluationSteps;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.topology.state.WriteBehindStore;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Runs one kind of monitor over its keyed input: keeps each key's state in a write-behind
 * store, feeds it every envelope, and turns the lifecycle's notifications into alerts keyed by
 * dedup_key. Evaluation steps follow the monitor's own time, the newest event time of its own
 * input, rather than the task's stream time: a task may read other inputs too, and a monitor
 * whose input lags (HAProxy logs read after the same minutes' health checks) must not be
 * stepped past the data it has yet to see. When the input stops altogether, a wall-clock
 * punctuation keeps time moving so silence is noticed (live mode only).
 */
public final class MonitorProcessor<S> implements Processor<String, Envelope, String, Alert> {

    private final MonitorAdapter<S> adapter;
    private final String storeName;
    private final AlertFactory alerts;
    private final PipelineMetrics metrics;
    private final Duration step;
    private final boolean silenceClock;
    private ProcessorContext<String, Alert> context;
    private WriteBehindStore<S> store;
    private long ownTime = Long.MIN_VALUE;
    private long wallAtOwnTime;
    private long nextStep = Long.MIN_VALUE;

    public MonitorProcessor(MonitorAdapter<S> adapter, String storeName, AlertFactory alerts, PipelineMetrics metrics,
                            Duration step, boolean silenceClock) {
        this.adapter = adapter;
        this.storeName = storeName;
        this.alerts = alerts;
        this.metrics = metrics;
        this.step = step;
        this.silenceClock = silenceClock;
    }

    @Override
    public void init(ProcessorContext<String, Alert> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
        if (silenceClock) {
            context.schedule(step, PunctuationType.WALL_CLOCK_TIME, this::wallTick);
        }
    }

    @Override
    public void process(Record<String, Envelope> record) {
        String key = record.key();
        Envelope envelope = record.value();
        if (key == null || envelope == null) {
            return;
        }
        S state = store.getForUpdate(key, k -> adapter.newState(k, envelope));
        for (long eventTime : EventTimes.each(envelope)) {
            if (adapter.isLate(state, eventTime)) {
                // Counted, still applied: per-target state ignores what is older than it knows, and the
                // windows drop what is older than they cover. Dropping here would lose whole partitions'
                // worth of input whenever upstream tasks run unevenly (a backlog after downtime).
                metrics.late(adapter.name());
            }
        }
        emit(adapter.apply(state, envelope));
        adapter.changed(key, state);
        ownTimeReached(record.timestamp());
    }

    /**
     * This monitor's input reached {@code time}: once a step has passed since the last time, every
     * key steps to it, so quiet keys resolve and age out too (one catch-up however many steps were
     * skipped, as a stream-time punctuation would).
     */
    private void ownTimeReached(long time) {
        if (time <= ownTime) {
            return;
        }
        ownTime = time;
        wallAtOwnTime = context.currentSystemTimeMs();
        long stepMillis = step.toMillis();
        if (nextStep == Long.MIN_VALUE) {
            nextStep = time + stepMillis;
        } else if (time >= nextStep) {
            nextStep = EvaluationSteps.nextDue(time, nextStep, stepMillis);
            advanceAll(time, false);
        }
    }

    /** No record for a whole step of wall time: extrapolate event time from the wall clock. */
    private void wallTick(long wallNow) {
        if (ownTime == Long.MIN_VALUE || wallNow - wallAtOwnTime < step.toMillis()) {
            return;
        }
        advanceAll(ownTime + (wallNow - wallAtOwnTime), true);
    }

    private void advanceAll(long now, boolean silence) {
        store.forEach((key, state) -> {
            if (now > adapter.clock(state)) {
                emit(silence ? adapter.onTime(state, now) : adapter.onStreamTime(state, now));
                store.markChanged(key);
                adapter.changed(key, state);
            }
        });
    }

    private void emit(List<Notification> notifications) {
        for (Notification n : notifications) {
            Alert alert = alerts.toAlert(n);
            metrics.alert(alert.getType(), alert.getSeverity().name(), alert.getStatus().name());
            context.forward(new Record<>(alert.getDedupKey(), alert, n.eventTime()));
        }
    }
}
