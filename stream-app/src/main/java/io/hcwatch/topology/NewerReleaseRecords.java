package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.observability.LogText;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a processor does with an internal record a newer release wrote (on a repartition topic
 * during a rolling upgrade, in a store after a rollback): counted in
 * {@code hcwatch_newer_version_total{stage,held_in}}, logged, and dead-lettered with its bytes and
 * reason {@value #REASON}, so that rolling forward again, or replaying the dead letters with the
 * newer release, loses nothing; every other record goes on.
 */
final class NewerReleaseRecords {

    static final String REASON = "newer_version";
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
        metrics.newerVersion(stage, heldIn);
        sinceLogged++;
        long now = context.currentSystemTimeMs();
        if (lastLogged == Long.MIN_VALUE || now - lastLogged >= LOG_EVERY_MILLIS) {
            LOG.warn("{}: {} record{} written by a newer hcwatch dead-lettered ({}); {} such since the last of these lines;"
                    + " a rolling upgrade or a rollback is under way", stage, heldIn,
                    key == null ? "" : " of key " + LogText.of(key), record.why(), sinceLogged);
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
                .setError(DeadLetterBounds.text(heldIn + ": " + record.why()))
                .setDeadLetteredAt(Instant.ofEpochMilli(now))
                .setStage(stage)
                .setKey(key);
        return DeadLetterBounds.withRaw(letter, record.bytes()).build();
    }
}
