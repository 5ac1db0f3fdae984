package io.hcwatch.demo;

import io.hcwatch.avro.v1.Incident;
import io.hcwatch.serde.SpecificAvroDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every incident page on the incidents topic, from the start to its current end: what the
 * demo's summary lists, as it went through Kafka (not what the stream app computed in memory).
 */
final class IncidentReader {

    private IncidentReader() {
    }

    static List<Incident> readAll(String bootstrapServers, String registryUrl, String topic, Duration patience) {
        SpecificAvroDeserializer<Incident> incidents = new SpecificAvroDeserializer<>(Incident.class);
        incidents.configure(Map.of("schema.registry.url", registryUrl), false);
        List<Incident> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrapServers,
                "isolation.level", "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + patience.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() != null) {
                        out.add(incidents.deserialize(topic, r.value()));
                    }
                }
            }
        }
        return out;
    }
}
