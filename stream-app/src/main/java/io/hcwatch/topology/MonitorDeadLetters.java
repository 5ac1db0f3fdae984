package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.time.Upstreams;
import io.hcwatch.topology.state.NewerLayoutException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * What a monitor sends to the dead-letter topic: its own failures ({@link ProcessingFailures}) and
 * what a newer release wrote ({@link NewerReleaseRecords}), keyed by the key they concern or, for
 * the clock's own, by the stage.
 */
final class MonitorDeadLetters implements SavedClock.Refused {

    private final ProcessingFailures failures;
    private final NewerReleaseRecords newer;
    /** Held records of a newer release found at start: init cannot forward, so they go with the first record or tick. */
    private final List<DeadLetter> refusedAtStart = new ArrayList<>();
    private ProcessorContext<String, MonitorOutput> context;
    private EnvelopeSerde envelopeSerde;

    MonitorDeadLetters(String monitor, PipelineMetrics metrics) {
        this.failures = new ProcessingFailures("monitor-" + monitor, metrics);
        this.newer = new NewerReleaseRecords("monitor-" + monitor, metrics);
    }

    void init(ProcessorContext<String, MonitorOutput> context) {
        this.context = context;
    }

    /** A held record of a newer release, found while the clock is restored. */
    @Override
    public void refused(FromNewerRelease record, String key, long time) {
        refusedAtStart.add(newer.refused(record, "clock", context, key, time));
    }

    /** Sends what was refused at start, once a record or tick lets the processor forward. */
    void sendRefusedAtStart(long timestamp) {
        for (DeadLetter letter : refusedAtStart) {
            forward(letter.getKey(), letter, timestamp);
        }
        refusedAtStart.clear();
    }

    /** A repartition record a newer release wrote. */
    void fromNewerRelease(FromNewerRelease record, String key, long timestamp) {
        forward(key, newer.refused(record, "repartition", context, key, timestamp), timestamp);
    }

    /** A record for a key whose stored state a newer release wrote; the state stays as stored. */
    void refusedState(NewerLayoutException refusal, String key, Envelope envelope, long time) {
        forward(key, newer.refusedState(refusal, context, key, encoded(envelope, refusal), time), time);
    }

    /** This release's own failure on a key's update ({@code key} set) or on the clock's (null). */
    void failed(RuntimeException e, String key, Envelope envelope, long time) {
        String source = envelope == null || envelope.upstream() == null ? null : Upstreams.sourceOf(envelope.upstream());
        forward(key, failures.failed(e, context, source, key, encoded(envelope, e), time), time);
    }

    private void forward(String key, DeadLetter letter, long time) {
        context.forward(new Record<>(key == null ? failures.stage() : key, new MonitorOutput.Failed(letter), Math.max(0, time)));
    }

    /** {@code envelope} as the repartition topic carries it, for a dead letter's raw; null when there is none or it cannot be encoded. */
    private byte[] encoded(Envelope envelope, RuntimeException failure) {
        if (envelope == null) {
            return null;
        }
        try {
            if (envelopeSerde == null) {
                envelopeSerde = new EnvelopeSerde();
            }
            return envelopeSerde.serialize(null, envelope);
        } catch (RuntimeException unencodable) {
            failure.addSuppressed(unencodable);
            return null;
        }
    }
}
