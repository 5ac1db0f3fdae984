package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.observability.LogText;
import io.hcwatch.topology.state.NewerLayoutException;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a processor does with an internal record a newer release wrote (on a repartition topic
 * during a rolling upgrade, in a store after a rollback), or with a record for a key whose state a
 * newer release wrote: counted in
 * {@code hcwatch_newer_version_total{stage,held_in}}, logged, and dead-lettered with its bytes and
 * reason {@value #REASON}, so that rolling forward again, or replaying the dead letters with the
 * newer release, loses nothing; every other record goes on.
 */
final class NewerReleaseRecords {

    static final String REASON = "newer_version";
    /** Where a key's state of a newer layout is: the monitor's store (the records refused for it are counted there). */
    static final String STATE = "state";
    private static final Logger LOG = LoggerFactory.getLogger(NewerReleaseRecords.class);

    /** During a rolling upgrade every progress report of the newer instances comes here: logged once a minute, not each. */
    private static final long LOG_EVERY_MILLIS = 60_000;

    private final String stage;
    private final PipelineMetrics metrics;
    private long lastLogged = Long.MIN_VALUE;
    private long sinceLogged;

    /** @param stage the processor's name in the topology: ingest-&lt;source&gt; or monitor-&lt;kind&gt; */
    NewerReleaseRecords(String stage, PipelineMetrics metrics) {
        this.stage = stage;
        this.metrics = metrics;
    }

    /**
     * @param heldIn where it was found: repartition, clock or pending ({@link PipelineMetrics#NEWER_VERSION_PLACES})
     * @param key    the key it was sent or held under, or null
     * @param time   its Kafka timestamp, or negative when not known
     */
    DeadLetter refused(FromNewerRelease record, String heldIn, ProcessorContext<?, ?> context, String key, long time) {
        String what = heldIn + " record" + (key == null ? "" : " of key " + LogText.of(key)) + " written by a newer hcwatch";
        return deadLetter(heldIn, what, record.why(), record.bytes(), context, key, time);
    }

    /**
     * A record that could not reach {@code key} because the key's stored state is of a newer
     * layout (held_in {@code state}): the record is this release's own, so it is the dead letter's
     * {@code raw}, for the newer release to take once it runs again.
     *
     * @param record the record as this release encodes it, or null when it could not be encoded
     */
    DeadLetter refusedState(NewerLayoutException refusal, ProcessorContext<?, ?> context, String key, byte[] record, long time) {
        String what = "record for key " + LogText.of(key) + ", whose state a newer hcwatch wrote,";
        return deadLetter(STATE, what, refusal.getMessage(), record, context, key, time);
    }

    private DeadLetter deadLetter(String heldIn, String what, String why, byte[] raw, ProcessorContext<?, ?> context,
                                  String key, long time) {
        metrics.newerVersion(stage, heldIn);
        sinceLogged++;
        long now = context.currentSystemTimeMs();
        if (lastLogged == Long.MIN_VALUE || now - lastLogged >= LOG_EVERY_MILLIS) {
            LOG.warn("{}: {} dead-lettered ({}); {} such since the last of these lines; a rolling upgrade or a rollback"
                    + " is under way", stage, what, why, sinceLogged);
            lastLogged = now;
            sinceLogged = 0;
        }
        RecordMetadata meta = "repartition".equals(heldIn) ? context.recordMetadata().orElse(null) : null;
        boolean fromRecord = meta != null && meta.topic() != null;
        DeadLetter.Builder letter = DeadLetter.newBuilder()
                .setSource(stage)
                .setTopic(fromRecord ? meta.topic() : null)
                .setPartition(fromRecord ? meta.partition() : null)
                .setOffset(fromRecord && meta.offset() >= 0 ? meta.offset() : null)
                .setInputTimestamp(time >= 0 ? Instant.ofEpochMilli(time) : null)
                .setReason(REASON)
                .setError(DeadLetterBounds.text(heldIn + ": " + why))
                .setDeadLetteredAt(Instant.ofEpochMilli(now))
                .setStage(stage)
                .setKey(key);
        return DeadLetterBounds.withRaw(letter, raw).build();
    }
}
