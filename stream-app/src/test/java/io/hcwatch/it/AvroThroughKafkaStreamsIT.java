package io.hcwatch.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The foundation end to end: Avro records written in Confluent's wire format through an HTTP
 * schema registry, a Kafka Streams topology on a real KRaft broker, and the result read back.
 */
class AvroThroughKafkaStreamsIT {

    @Test
    void avroRecordsRoundTripThroughARealBrokerAndATrivialTopology() throws Exception {
        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start();
             SchemaRegistryServer registry = new SchemaRegistryServer(new InMemorySchemaRegistry()).start()) {
            kafka.createTopics(1, "in", "out");
            Map<String, Object> serdeConfig = Map.of("schema.registry.url", registry.url());
            SpecificAvroSerde<HealthCheckResult> serde = SpecificAvroSerde.forValues(HealthCheckResult.class, serdeConfig);

            StreamsBuilder b = new StreamsBuilder();
            b.stream("in", Consumed.with(Serdes.String(), serde))
                    .mapValues(r -> HealthCheckResult.newBuilder(r).setReason("seen by streams").build())
                    .to("out", Produced.with(Serdes.String(), serde));
            Properties props = new Properties();
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, "avro-it");
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
            Path state = Files.createTempDirectory("avro-it");
            props.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());

            try (KafkaStreams streams = new KafkaStreams(b.build(), props)) {
                streams.start();
                try (KafkaProducer<String, HealthCheckResult> producer = new KafkaProducer<>(
                        Map.of("bootstrap.servers", kafka.bootstrapServers()), Serdes.String().serializer(), serde.serializer())) {
                    for (int i = 0; i < 3; i++) {
                        producer.send(new ProducerRecord<>("in", "i-" + i, HealthCheckResult.newBuilder()
                                .setTs(Instant.parse("2026-03-03T14:32:45.120Z").plusSeconds(i)).setTargetGroup("prod-web-tg")
                                .setTarget("i-" + i).setOutcome(CheckOutcome.timeout).setLatencyMs(2001).build())).get();
                    }
                }
                List<HealthCheckResult> out = new ArrayList<>();
                try (KafkaConsumer<String, HealthCheckResult> consumer = new KafkaConsumer<>(Map.of(
                        "bootstrap.servers", kafka.bootstrapServers(), "group.id", "reader", "auto.offset.reset", "earliest"),
                        Serdes.String().deserializer(), serde.deserializer())) {
                    consumer.subscribe(List.of("out"));
                    Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> out.add(r.value()));
                        return out.size() >= 3;
                    });
                }
                assertThat(out).extracting(HealthCheckResult::getTarget).containsExactly("i-0", "i-1", "i-2");
                assertThat(out).allSatisfy(r -> assertThat(r.getReason()).isEqualTo("seen by streams"));
                assertThat(registry.registry().subjects()).contains("in-value", "out-value");
                streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(20)));
            }
        }
    }
}
