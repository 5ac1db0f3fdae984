package io.hcwatch.replay;

import io.hcwatch.time.EvaluationSteps;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The context a topology processor sees when replay drives it in-process: forwards go to the
 * next stage directly (replay is one partition, so repartitioning is a no-op), stores are plain
 * objects, and both clocks follow event time. Punctuations fire as that time passes them.
 */
final class ReplayContext<K, V> implements ProcessorContext<K, V> {

    private final Map<String, StateStore> stores = new HashMap<>();
    private final Consumer<Record<K, V>> downstream;
    private final List<Schedule> schedules = new ArrayList<>();
    private RecordMetadata metadata;
    private long streamTime = Long.MIN_VALUE;

    ReplayContext(Consumer<Record<K, V>> downstream) {
        this.downstream = downstream;
    }

    void addStore(String name, StateStore store) {
        stores.put(name, store);
    }

    void setMetadata(String topic, int partition, long offset) {
        this.metadata = new Metadata(topic, partition, offset);
    }

    /** Moves this processor's clocks to {@code time}, firing every punctuation that falls due on the way. */
    void advance(long time) {
        if (time <= streamTime) {
            return;
        }
        streamTime = time;
        for (Schedule s : new ArrayList<>(schedules)) {
            if (s.next == Long.MIN_VALUE) {
                s.next = time + s.interval;
                continue;
            }
            if (!s.cancelled && s.next <= time) {
                // like Kafka Streams: one punctuation per advance, however many intervals it skipped
                s.next = EvaluationSteps.nextDue(time, s.next, s.interval);
                s.punctuator.punctuate(time);
            }
        }
    }

    /**
     * Fires every wall-clock punctuation once more at the end of the input (final flushes), a second
     * after its last record: nothing more of the second that record fell in can come.
     */
    void fireWallClock() {
        for (Schedule s : new ArrayList<>(schedules)) {
            if (s.type == PunctuationType.WALL_CLOCK_TIME && !s.cancelled) {
                s.punctuator.punctuate(streamTime == Long.MIN_VALUE ? streamTime : streamTime + 1000);
            }
        }
    }

    @Override
    public <K1 extends K, V1 extends V> void forward(Record<K1, V1> record) {
        @SuppressWarnings("unchecked")
        Record<K, V> r = (Record<K, V>) record;
        downstream.accept(r);
    }

    @Override
    public <K1 extends K, V1 extends V> void forward(Record<K1, V1> record, String childName) {
        forward(record);
    }

    @Override
    public String applicationId() {
        return "hcwatch-replay";
    }

    @Override
    public TaskId taskId() {
        return new TaskId(0, 0);
    }

    @Override
    public Optional<RecordMetadata> recordMetadata() {
        return Optional.ofNullable(metadata);
    }

    @Override
    public Serde<?> keySerde() {
        return null;
    }

    @Override
    public Serde<?> valueSerde() {
        return null;
    }

    @Override
    public File stateDir() {
        return null;
    }

    @Override
    public StreamsMetrics metrics() {
        throw new UnsupportedOperationException("hcwatch processors record metrics through Micrometer");
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S extends StateStore> S getStateStore(String name) {
        StateStore store = stores.get(name);
        if (store == null) {
            throw new IllegalStateException("no store " + name + " in replay");
        }
        return (S) store;
    }

    @Override
    public Cancellable schedule(Duration interval, PunctuationType type, Punctuator callback) {
        Schedule s = new Schedule(interval.toMillis(), type, callback);
        schedules.add(s);
        return () -> s.cancelled = true;
    }

    @Override
    public Cancellable schedule(java.time.Instant startTime, Duration interval, PunctuationType type, Punctuator callback) {
        Schedule s = new Schedule(interval.toMillis(), type, callback);
        s.next = startTime.toEpochMilli();
        schedules.add(s);
        return () -> s.cancelled = true;
    }

    @Override
    public void commit() {
    }

    @Override
    public Map<String, Object> appConfigs() {
        return Map.of();
    }

    @Override
    public Map<String, Object> appConfigsWithPrefix(String prefix) {
        return Map.of();
    }

    @Override
    public long currentSystemTimeMs() {
        return Math.max(0, streamTime);
    }

    @Override
    public long currentStreamTimeMs() {
        return streamTime;
    }

    private static final class Schedule {
        final long interval;
        final PunctuationType type;
        final Punctuator punctuator;
        long next = Long.MIN_VALUE;
        boolean cancelled;

        Schedule(long interval, PunctuationType type, Punctuator punctuator) {
            this.interval = interval;
            this.type = type;
            this.punctuator = punctuator;
        }
    }

    private record Metadata(String topic, int partition, long offset) implements RecordMetadata {
    }
}
