package io.hcwatch.serde;

import io.hcwatch.registry.SchemaRegistryClient;
import io.hcwatch.registry.SchemaRegistryException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent wire-format values into a specific record class, resolving the writer's
 * schema (fetched by id, once) against the reader's, so older and newer writers both work.
 *
 * <p>A value is bad data ({@link SerializationException}) when it is not what its schema says or
 * the registry says its schema id does not exist; when the registry cannot be asked, it is
 * {@link SchemaRegistryUnavailableException}, to be tried again.
 */
public final class SpecificAvroDeserializer<T extends SpecificRecord> implements Deserializer<T> {

    private final Class<T> type;
    private final Schema readerSchema;
    private final Map<Integer, SpecificDatumReader<T>> readers = new ConcurrentHashMap<>();
    private SchemaRegistryClient registry;
    private RegistryWait registryWait;

    public SpecificAvroDeserializer(Class<T> type) {
        this(type, null);
    }

    public SpecificAvroDeserializer(Class<T> type, SchemaRegistryClient registry) {
        this.type = type;
        this.readerSchema = SpecificData.get().getSchema(type);
        this.registry = registry;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (registry == null) {
            registry = SchemaRegistries.fromConfig(configs);
        }
        registryWait = SerdeConfig.registryWait(configs);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (registry == null) {
            throw new SerializationException("deserializer not configured: call configure() with " + SerdeConfig.SCHEMA_REGISTRY_URL);
        }
        int id = WireFormat.schemaId(data);
        SpecificDatumReader<T> reader;
        try {
            reader = registryWait == null ? reader(id, topic) : registryWait.call(() -> reader(id, topic));
        } catch (SchemaRegistryException e) {
            throw new SerializationException("could not decode " + type.getSimpleName() + " with writer schema "
                    + id + " from topic " + topic + ": " + e.getMessage(), e);
        }
        try {
            ClaimedLengthCheck.check(data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE, reader.getSchema());
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(
                    data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE, null);
            T value = reader.read(null, decoder);
            if (!decoder.isEnd()) {
                throw new SerializationException((data.length - WireFormat.HEADER_SIZE) + " bytes hold more than one "
                        + type.getSimpleName() + " written with schema " + id);
            }
            return value;
        } catch (ClaimedLengthCheck.Refused e) {
            throw new SerializationException("could not decode " + type.getSimpleName() + " with writer schema " + id
                    + " from topic " + topic + ": " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            if (e instanceof SerializationException se) {
                throw se;
            }
            throw new SerializationException("could not decode " + type.getSimpleName() + " with writer schema "
                    + id + " from topic " + topic + ": " + e.getMessage(), e);
        }
    }

    private SpecificDatumReader<T> reader(int id, String topic) {
        try {
            return readers.computeIfAbsent(id, this::readerFor);
        } catch (SchemaRegistryException e) {
            if (e.isUnavailable()) {
                throw new SchemaRegistryUnavailableException(id, topic, e);
            }
            throw e;
        }
    }

    private SpecificDatumReader<T> readerFor(int id) {
        Schema writer = registry.getById(id);
        return new SpecificDatumReader<>(writer, readerSchema);
    }
}
