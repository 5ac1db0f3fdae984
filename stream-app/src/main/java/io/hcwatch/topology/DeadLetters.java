package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.deadletter.DeadLetterBounds;
import java.time.Instant;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** The dead letter of an input value an ingest does not take: its reason, its error and its bytes as read. */
final class DeadLetters {

    private final String source;

    /** @param source the input's id (alb, haproxy, ...) */
    DeadLetters(String source) {
        this.source = source;
    }

    /**
     * @param read           where the value was read (topic, partition, offset), or null when not known
     * @param inputTimestamp the record's Kafka timestamp, or negative when it has none
     * @param wallNow        when it is dead-lettered
     */
    DeadLetter of(RecordMetadata read, long inputTimestamp, byte[] raw, String reason, String error, long wallNow) {
        DeadLetter.Builder letter = DeadLetter.newBuilder()
                .setSource(source)
                .setTopic(read == null ? null : read.topic())
                .setPartition(read == null ? null : read.partition())
                .setOffset(read == null ? null : read.offset())
                .setInputTimestamp(inputTimestamp >= 0 ? Instant.ofEpochMilli(inputTimestamp) : null)
                .setReason(reason)
                .setError(DeadLetterBounds.text(error))
                .setDeadLetteredAt(Instant.ofEpochMilli(wallNow));
        return DeadLetterBounds.withRaw(letter, raw).build();
    }
}
