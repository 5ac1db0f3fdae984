package io.hcwatch.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaBrokerIT {

    @Test
    void aFreshBrokerTakesARecordAndGivesItBack() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            broker.createTopics(1, List.of("t"));
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                    new StringSerializer(), new StringSerializer())) {
                p.send(new ProducerRecord<>("t", "k", "hello")).get();
            }
            try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                    "group.id", "g", "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer())) {
                c.subscribe(List.of("t"));
                ConsumerRecords<String, String> records = ConsumerRecords.empty();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (records.isEmpty() && System.nanoTime() < deadline) {
                    records = c.poll(Duration.ofMillis(500));
                }
                assertThat(records.iterator().next().value()).isEqualTo("hello");
            }
        }
    }

    /**
     * CI of cda0eca: a port looked up free was bound by someone else before the broker bound it
     * ("Address already in use"). Only the broker's listener is tried here: a controller that cannot
     * bind ends the JVM (Kafka's fault handler), which freePorts' choice of ports keeps from happening.
     */
    @Test
    void aBrokerPortTakenBeforeTheBrokerBindsItIsTradedForAnother() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            AtomicInteger tries = new AtomicInteger();
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Map.of(), null, count -> {
                int[] ports = EmbeddedKafkaBroker.freePorts(count);
                if (tries.getAndIncrement() == 0) {
                    ports[0] = taken.getLocalPort();
                }
                return ports;
            })) {
                assertThat(tries).hasValue(2);
                assertThat(broker.bootstrapServers()).doesNotEndWith(":" + taken.getLocalPort());
                broker.createTopics(1, List.of("t"));
            }
        }
    }
}
