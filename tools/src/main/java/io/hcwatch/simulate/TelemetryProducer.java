package io.hcwatch.simulate;

import io.hcwatch.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces a simulation to Kafka the way the real sources would: each record to its source's
 * topic, the raw line or JSON as the value, the key docs/contract.md ("Topics") gives it, and the event time as
 * the record timestamp. Paced against the wall clock, {@code speed} simulated seconds per second
 * (0: as fast as the producer goes).
 */
public final class TelemetryProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final Topics topics;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    /** @param overrides producer settings over the defaults (e.g. security settings) */
    public TelemetryProducer(String bootstrapServers, Topics topics, Map<String, Object> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "hcwatch-simulator");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        config.putAll(overrides);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        this.producer = new KafkaProducer<>(config);
        this.topics = topics;
    }

    /**
     * Runs the simulation into Kafka until it ends or {@code stop} says so; returns the records sent.
     * Throws if Kafka refused a record.
     */
    public long produce(Simulation simulation, double speed, BooleanSupplier stop) {
        long simStart = simulation.params().start().toEpochMilli();
        long wallStart = System.nanoTime();
        for (Telemetry t : simulation) {
            if (stop.getAsBoolean()) {
                break;
            }
            pace(t.eventTimeMillis(), simStart, wallStart, speed, stop);
            send(t);
            throwIfRefused();
        }
        producer.flush();
        throwIfRefused();
        return sent.get();
    }

    /**
     * Produces what an AWS account delivers ({@link AwsDelivery}): each record or S3 object's lines
     * at its delivery time, paced like {@link #produce}; {@code delivered} sees each delivery as it goes.
     */
    public long produce(List<AwsDelivery.Delivery> deliveries, long simStart, double speed, BooleanSupplier stop,
                        Consumer<AwsDelivery.Delivery> delivered) {
        return produce(deliveries, simStart, speed, stop, delivered, o -> o.lines().forEach(this::send));
    }

    /**
     * As above, but each S3 object goes to {@code objects} when it is due (to reach Kafka through S3
     * and {@code collect alb-logs}) instead of being produced here; only the other records count as sent.
     */
    public long produce(List<AwsDelivery.Delivery> deliveries, long simStart, double speed, BooleanSupplier stop,
                        Consumer<AwsDelivery.Delivery> delivered, Consumer<AwsDelivery.LogObject> objects) {
        long wallStart = System.nanoTime();
        for (AwsDelivery.Delivery d : deliveries) {
            if (stop.getAsBoolean()) {
                break;
            }
            pace(d.at(), simStart, wallStart, speed, stop);
            if (d.object() == null) {
                send(d.record());
            } else {
                objects.accept(d.object());
            }
            delivered.accept(d);
            throwIfRefused();
        }
        producer.flush();
        throwIfRefused();
        return sent.get();
    }

    private void throwIfRefused() {
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("Kafka refused a record: " + e.getMessage(), e);
        }
    }

    /** Waits until simulated time {@code at} is due on the wall clock at {@code speed} (0: never waits). */
    private static void pace(long at, long simStart, long wallStart, double speed, BooleanSupplier stop) {
        if (speed <= 0) {
            return;
        }
        long due = wallStart + Math.round((at - simStart) * 1_000_000.0 / speed);
        while (!stop.getAsBoolean()) {
            long wait = due - System.nanoTime();
            if (wait <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(wait, 100_000_000L));
        }
    }

    private void send(Telemetry t) {
        byte[] key = t.key() == null ? null : t.key().getBytes(StandardCharsets.UTF_8);
        producer.send(new ProducerRecord<>(topics.input(t.source()), null, t.eventTimeMillis(), key, t.value()),
                (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        sent.incrementAndGet();
                    }
                });
    }

    /** Records Kafka acknowledged so far. */
    public long sent() {
        return sent.get();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
