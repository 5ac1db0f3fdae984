package io.hcwatch.serde;

import io.hcwatch.registry.SchemaRegistryClient;
import io.hcwatch.registry.SchemaRegistryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes specific records in Confluent's wire format, registering (or looking up) the writer
 * schema under the TopicNameStrategy subject once per topic.
 */
public final class SpecificAvroSerializer<T extends SpecificRecord> implements Serializer<T> {

    private final Map<String, Integer> idBySubject = new ConcurrentHashMap<>();
    private final Map<Schema, SpecificDatumWriter<T>> writers = new ConcurrentHashMap<>();
    private SchemaRegistryClient registry;
    private RegistryWait registryWait;
    private boolean autoRegister = true;
    private boolean isKey;

    public SpecificAvroSerializer() {
    }

    public SpecificAvroSerializer(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        if (registry == null) {
            registry = SchemaRegistries.fromConfig(configs);
        }
        registryWait = SerdeConfig.registryWait(configs);
        Object auto = configs.get(SerdeConfig.AUTO_REGISTER_SCHEMAS);
        if (auto != null) {
            autoRegister = Boolean.parseBoolean(auto.toString());
        }
    }

    @Override
    public byte[] serialize(String topic, T data) {
        if (data == null) {
            return null;
        }
        if (registry == null) {
            throw new SerializationException("serializer not configured: call configure() with " + SerdeConfig.SCHEMA_REGISTRY_URL);
        }
        Schema schema = data.getSchema();
        String subject = WireFormat.subject(topic, isKey);
        String key = subject + '\0' + schema.getFullName();
        int id = registryWait == null ? idBySubject.computeIfAbsent(key, k -> schemaId(subject, schema))
                : registryWait.call(() -> idBySubject.computeIfAbsent(key, k -> schemaId(subject, schema)));
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(256);
            out.write(WireFormat.MAGIC_BYTE);
            out.write(id >>> 24);
            out.write(id >>> 16);
            out.write(id >>> 8);
            out.write(id);
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            writers.computeIfAbsent(schema, SpecificDatumWriter::new).write(data, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("could not encode " + schema.getFullName() + " for topic " + topic, e);
        }
    }

    private int schemaId(String subject, Schema schema) {
        try {
            return autoRegister ? registry.register(subject, schema) : registry.lookup(subject, schema).id();
        } catch (SchemaRegistryException e) {
            if (e.isUnavailable()) {
                throw new SchemaRegistryUnavailableException(subject, e);
            }
            throw new SerializationException("could not get a schema id for subject " + subject, e);
        } catch (RuntimeException e) {
            throw new SerializationException("could not get a schema id for subject " + subject, e);
        }
    }
}
