package io.hcwatch.sink.consume;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.deadletter.DeadLetterBounds;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes an alert record that could not be delivered to the dead-letter topic, byte for byte with
 * where it came from, and waits for the broker's acknowledgement: the caller commits the original
 * offset only after this returns.
 */
public final class DeadLetterWriter {

    private final Producer<byte[], byte[]> producer;
    private final Serializer<DeadLetter> serializer;
    private final String topic;
    private final String source;
    private final Clock clock;
    private final Duration sendTimeout;

    /** @param source what the dead letter's {@code source} field says, e.g. {@code alerts} */
    public DeadLetterWriter(Producer<byte[], byte[]> producer, Serializer<DeadLetter> serializer, String topic,
            String source, Clock clock, Duration sendTimeout) {
        this.producer = producer;
        this.serializer = serializer;
        this.topic = topic;
        this.source = source;
        this.clock = clock;
        this.sendTimeout = sendTimeout;
    }

    /** @throws KafkaException when the broker did not acknowledge in time; the record must then not be committed */
    public void write(ConsumerRecord<byte[], byte[]> record, String reason, String error) throws InterruptedException {
        DeadLetter.Builder letter = DeadLetter.newBuilder()
                .setSource(source)
                .setTopic(record.topic())
                .setPartition(record.partition())
                .setOffset(record.offset())
                .setInputTimestamp(record.timestamp() >= 0 ? Instant.ofEpochMilli(record.timestamp()) : null)
                .setReason(reason)
                .setError(DeadLetterBounds.text(error))
                .setDeadLetteredAt(clock.instant());
        byte[] value = serializer.serialize(topic, DeadLetterBounds.withRaw(letter, record.value()).build());
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(topic, null, record.key(), value);
        try {
            producer.send(out).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new KafkaException("could not write the dead letter for " + record.topic() + "-" + record.partition()
                    + "@" + record.offset() + " to " + topic, cause);
        }
    }
}
