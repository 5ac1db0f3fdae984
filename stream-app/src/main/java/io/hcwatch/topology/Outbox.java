package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.input.Telemetry;
import io.hcwatch.topology.Routed.Destination;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Where one ingest partition's output goes: records to a monitor, in an envelope that names this
 * partition as their upstream; progress markers; dead letters. The processor hands it its
 * context's forward, tests a list.
 */
final class Outbox {

    /** Key of progress reports on the monitor topics; they go to every partition whatever the key. */
    static final String PROGRESS_KEY = "";

    private final Consumer<Record<String, Routed>> forward;
    private final String upstream;

    /** @param upstream the input partition, {@code source-partition} (e.g. health-3) */
    Outbox(Consumer<Record<String, Routed>> forward, String upstream) {
        this.forward = forward;
        this.upstream = upstream;
    }

    String upstream() {
        return upstream;
    }

    void send(Destination destination, String key, Telemetry record, long eventTime) {
        forward.accept(new Record<>(key, Routed.to(destination, new Envelope(record, upstream)), eventTime));
    }

    /** This partition has sent on everything up to {@code time}: told to every partition of {@code destination}. */
    void progress(Destination destination, long time, boolean idle) {
        forward.accept(new Record<>(PROGRESS_KEY, Routed.to(destination, Envelope.progress(upstream, time, idle)), Math.max(0, time)));
    }

    void deadLetter(String key, DeadLetter letter, long timestamp) {
        forward.accept(new Record<>(key, Routed.dead(letter), timestamp));
    }
}
