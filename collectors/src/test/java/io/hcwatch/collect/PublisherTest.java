package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.testsupport.ReservedPort;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PublisherTest {

    /**
     * A real producer pointed at a closed loopback port: its first send waits max.block.ms for
     * metadata and fails. What must follow is counted, not timed: the producer is asked to send once,
     * the other records fail at once as unavailable, every record reports its failure, and only when
     * the (injected) clock has passed the pause is Kafka tried again. The timeout only guards
     * against a hang.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withKafkaUnreachableOnlyTheFirstSendWaitsAndEveryRecordReportsItsFailure() throws Exception {
        int closed = ReservedPort.closed();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicInteger sends = new AtomicInteger();
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        List<Integer> failed = new CopyOnWriteArrayList<>();
        LbConfig record = LbConfig.newBuilder().setKind(ConfigKind.haproxy_process).setId("lb1").setTs(Instant.EPOCH)
                .setHost("lb1").setMaxconn(100).build();

        try (KafkaProducer<String, byte[]> kafka = new KafkaProducer<>(Map.of("bootstrap.servers", "127.0.0.1:" + closed,
                "max.block.ms", 300), new StringSerializer(), new ByteArraySerializer());
             Publisher publisher = new Publisher(counting(kafka, sends),
                     (topic, r) -> AvroJson.write(r).getBytes(StandardCharsets.UTF_8),
                     new CollectorMetrics(registry), nanos::get)) {
            for (int i = 0; i < 20; i++) {
                int n = i;
                publisher.publish("lb-config", "lb1", record, 0L, nanos.get(), () -> failed.add(n));
            }
            assertThat(sends).as("one send reached the producer; the other 19 did not wait for it").hasValue(1);
            assertThat(failed).as("every record reported its failure, in order").containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, 20).boxed().toList());
            assertThat(errors(registry, "delivery")).isEqualTo(1.0);
            assertThat(errors(registry, "unavailable")).isEqualTo(19.0);

            nanos.addAndGet(Publisher.UNAVAILABLE_PAUSE.toNanos() - 1);
            publisher.publish("lb-config", "lb1", record, 0L, nanos.get(), () -> failed.add(20));
            assertThat(sends).as("still inside the pause").hasValue(1);
            assertThat(errors(registry, "unavailable")).isEqualTo(20.0);

            nanos.addAndGet(1);
            publisher.publish("lb-config", "lb1", record, 0L, nanos.get(), () -> failed.add(21));
            assertThat(sends).as("the pause is over: Kafka is tried again").hasValue(2);
            assertThat(failed).hasSize(22).endsWith(20, 21);
            assertThat(errors(registry, "delivery")).isEqualTo(2.0);
        }
    }

    private static double errors(SimpleMeterRegistry registry, String reason) {
        return registry.get("hcwatch.collector.publish.errors").tags("topic", "lb-config", "reason", reason).counter().count();
    }

    /** The producer, counting the records it is asked to send. */
    @SuppressWarnings("unchecked")
    private static Producer<String, byte[]> counting(Producer<String, byte[]> producer, AtomicInteger sends) {
        return (Producer<String, byte[]>) Proxy.newProxyInstance(PublisherTest.class.getClassLoader(),
                new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("send")) {
                        sends.incrementAndGet();
                    }
                    try {
                        return method.invoke(producer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
