package io.hcwatch.serde;

import io.hcwatch.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** A Kafka serde for specific records in Confluent's wire format. */
public final class SpecificAvroSerde<T extends SpecificRecord> implements Serde<T> {

    private final SpecificAvroSerializer<T> serializer;
    private final SpecificAvroDeserializer<T> deserializer;

    public SpecificAvroSerde(Class<T> type) {
        this.serializer = new SpecificAvroSerializer<>();
        this.deserializer = new SpecificAvroDeserializer<>(type);
    }

    public SpecificAvroSerde(Class<T> type, SchemaRegistryClient registry) {
        this.serializer = new SpecificAvroSerializer<>(registry);
        this.deserializer = new SpecificAvroDeserializer<>(type, registry);
    }

    /** A value serde already configured from {@code configs}. */
    public static <T extends SpecificRecord> SpecificAvroSerde<T> forValues(Class<T> type, Map<String, ?> configs) {
        SpecificAvroSerde<T> serde = new SpecificAvroSerde<>(type);
        serde.configure(configs, false);
        return serde;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }
}
