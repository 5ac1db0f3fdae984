package io.hcwatch.collect;

import io.hcwatch.serde.SchemaRegistryUnavailableException;
import io.hcwatch.serde.SpecificAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.LoggerFactory;

/**
 * Sends collected records to Kafka, keyed by string, values in the configured format. Never blocks a
 * poll for long: {@code max.block.ms} defaults to 2 s, and once a send timed out (the producer
 * reports a metadata wait that ran out through the callback, inside {@code send}) the next sends fail
 * at once for {@link #UNAVAILABLE_PAUSE} instead of each waiting again. Once metadata is known the
 * producer buffers and retries by itself (up to {@code delivery.timeout.ms}). A record that is not
 * delivered calls its {@code onFailure}, so the collector can send the state it stood for again.
 */
public final class Publisher implements AutoCloseable {

    static final Duration UNAVAILABLE_PAUSE = Duration.ofSeconds(5);

    private final Producer<String, byte[]> producer;
    private final Encoder encoder;
    private final CollectorMetrics metrics;
    private final ErrorLog errors;
    private final LongSupplier nanoTime;
    private volatile long unavailableUntil;

    /** Turns a record into the bytes of a value for one topic. */
    @FunctionalInterface
    public interface Encoder {
        byte[] encode(String topic, SpecificRecord record);
    }

    Publisher(Producer<String, byte[]> producer, Encoder encoder, CollectorMetrics metrics,
              LongSupplier nanoTime) {
        this.producer = producer;
        this.encoder = encoder;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
        this.unavailableUntil = nanoTime.getAsLong();
        this.errors = new ErrorLog(LoggerFactory.getLogger(Publisher.class), Duration.ofMinutes(1), nanoTime);
    }

    public static Publisher create(PublishConfig config, String clientId, CollectorMetrics metrics) {
        Producer<String, byte[]> producer = new KafkaProducer<>(producerSettings(config, clientId), new StringSerializer(),
                new ByteArraySerializer());
        Encoder encoder;
        if (config.format() == PublishConfig.Format.AVRO) {
            SpecificAvroSerializer<SpecificRecord> avro = new SpecificAvroSerializer<>();
            avro.configure(config.serdeConfig(), false);
            encoder = avro::serialize;
        } else {
            encoder = (topic, record) -> AvroJson.write(record).getBytes(StandardCharsets.UTF_8);
        }
        return new Publisher(producer, encoder, metrics, System::nanoTime);
    }

    /** The settings the producer is made with. */
    static Map<String, Object> producerSettings(PublishConfig config, String clientId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.putAll(config.producerOverrides());
        return props;
    }

    public Producer<String, byte[]> producer() {
        return producer;
    }

    /**
     * @param pollStartNanos {@link System#nanoTime()} when the poll that made the record started: the
     *                       publish latency metric runs from there to the broker's acknowledgement
     * @param onFailure      runs (on a producer thread or this one) when the record was not delivered
     */
    public void publish(String topic, String key, SpecificRecord record, long timestampMs, long pollStartNanos,
                        Runnable onFailure) {
        if (nanoTime.getAsLong() - unavailableUntil < 0) {
            fail(topic, "unavailable", "Kafka was unreachable moments ago; not waiting again", onFailure);
            return;
        }
        byte[] value;
        try {
            value = encoder.encode(topic, record);
        } catch (SerializationException e) {
            fail(topic, "serialize", describe(e), onFailure);
            return;
        } catch (SchemaRegistryUnavailableException e) {
            fail(topic, "unavailable", describe(e), onFailure);
            return;
        }
        try {
            producer.send(new ProducerRecord<>(topic, null, timestampMs, key, value), (meta, error) -> {
                if (error == null) {
                    metrics.published(topic, nanoTime.getAsLong() - pollStartNanos);
                } else {
                    if (error instanceof TimeoutException) {
                        pause();
                    }
                    fail(topic, "delivery", describe(error), onFailure);
                }
            });
        } catch (TimeoutException e) {
            pause();
            fail(topic, "unavailable", describe(e), onFailure);
        } catch (KafkaException e) {
            fail(topic, "send", describe(e), onFailure);
        }
    }

    private void pause() {
        unavailableUntil = nanoTime.getAsLong() + UNAVAILABLE_PAUSE.toNanos();
    }

    private void fail(String topic, String reason, String message, Runnable onFailure) {
        metrics.publishFailed(topic, reason);
        errors.failure("publish to " + topic, reason, message, "");
        onFailure.run();
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.getClass().getSimpleName()).append(": ").append(e.getMessage());
        if (e.getCause() != null && e.getCause() != e) {
            sb.append(" (").append(e.getCause().getClass().getSimpleName()).append(": ").append(e.getCause().getMessage()).append(')');
        }
        return sb.toString().replace('\n', ' ');
    }

    /** Waits up to {@code timeout} for buffered records, then closes. */
    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
