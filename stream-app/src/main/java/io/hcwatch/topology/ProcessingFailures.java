package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.deadletter.DeadLetterBounds;
import io.hcwatch.metrics.PipelineMetrics;
import io.hcwatch.observability.LogText;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a processor does with an exception from its own code (a detector, a summary, the lifecycle)
 * instead of letting it reach Kafka Streams: there it would replace the stream thread, which reads
 * the same record again, fails again, and stops every monitor of the task. The failure is counted
 * in {@code hcwatch_processing_errors_total{stage}}, logged, and written to the dead-letter topic
 * with the record and the exception; the caller skips that record or key and goes on.
 */
public final class ProcessingFailures {

    public static final String REASON = "processing_error";
    private static final Logger LOG = LoggerFactory.getLogger(ProcessingFailures.class);
    /** Keeps a dead letter readable and under the broker's record size whatever the exception. */
    private static final int MAX_STACK_CHARS = 16_000;
    private static final int MAX_MESSAGE_CHARS = 2_000;

    private final String stage;
    private final PipelineMetrics metrics;

    /** @param stage the processor's name in the topology: ingest-&lt;source&gt; or monitor-&lt;kind&gt; */
    public ProcessingFailures(String stage, PipelineMetrics metrics) {
        this.stage = stage;
        this.metrics = metrics;
    }

    public String stage() {
        return stage;
    }

    /**
     * Counts and logs {@code e} and builds its dead letter.
     *
     * @param source the input the record came from (alb, haproxy, ...), or the stage when unknown
     * @param key    the key whose update is skipped, or null
     * @param raw    the record as it was read (input bytes, or the internal record's encoding), or null
     */
    public DeadLetter failed(RuntimeException e, ProcessorContext<?, ?> context, String source, String key, byte[] raw,
                             long inputTimestamp) {
        metrics.processingError(stage);
        LOG.error("{} failed{}; skipped and dead-lettered", stage, key == null ? "" : " on key " + LogText.of(key), e);
        RecordMetadata meta = context.recordMetadata().orElse(null);
        boolean fromRecord = meta != null && meta.topic() != null;
        DeadLetter.Builder letter = DeadLetter.newBuilder()
                .setSource(source == null ? stage : source)
                .setTopic(fromRecord ? meta.topic() : null)
                .setPartition(fromRecord ? meta.partition() : null)
                .setOffset(fromRecord && meta.offset() >= 0 ? meta.offset() : null)
                .setInputTimestamp(inputTimestamp >= 0 ? Instant.ofEpochMilli(inputTimestamp) : null)
                .setReason(REASON)
                .setError(truncate(stage + " failed" + (key == null ? "" : " on key " + key) + ": " + e, MAX_MESSAGE_CHARS))
                .setDeadLetteredAt(Instant.ofEpochMilli(context.currentSystemTimeMs()))
                .setStage(stage)
                .setKey(key)
                .setExceptionClass(e.getClass().getName())
                .setExceptionMessage(e.getMessage() == null ? null : truncate(e.getMessage(), MAX_MESSAGE_CHARS))
                .setExceptionStack(truncate(stackOf(e), MAX_STACK_CHARS));
        return DeadLetterBounds.withRaw(letter, raw).build();
    }

    private static String stackOf(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }
}
