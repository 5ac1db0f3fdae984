package io.hcwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.RegisteredSchema;
import io.hcwatch.registry.SchemaRegistryClient;
import io.hcwatch.registry.SchemaRegistryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class SpecificAvroSerdeTest {

    private static final String TOPIC = "health-check-results";
    private static final Instant TS = Instant.parse("2026-03-03T14:32:45.120Z");
    private static final Instant REGISTERED = Instant.parse("2026-03-03T14:30:00Z");

    private static HealthCheckResult knownResult() {
        return HealthCheckResult.newBuilder()
                .setTs(TS).setSource("alb").setLb("app/prod-web/50dc6c495c0c9188")
                .setTargetGroup("prod-web-tg").setTarget("i-0abc123").setTargetIp("10.0.1.17").setPort(8080)
                .setAz("us-east-1a").setOutcome(CheckOutcome.timeout).setLatencyMs(2140).setStatusCode(null)
                .setState(TargetState.unhealthy).setReason("Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setPath("/health").setIntervalMs(10000).setTimeoutMs(2000)
                        .setHealthyThreshold(3).setUnhealthyThreshold(3).build())
                .setRegisteredAt(REGISTERED).setActiveServersLeft(null)
                .build();
    }

    /** The same record built field by field as a generic record, with logical types as their raw longs. */
    private static GenericRecord knownResultAsGeneric(Schema schema) {
        Schema checkSchema = schema.getField("check").schema().getTypes().get(1);
        GenericRecord check = new GenericData.Record(checkSchema);
        check.put("path", "/health");
        check.put("interval_ms", 10000);
        check.put("timeout_ms", 2000);
        check.put("healthy_threshold", 3);
        check.put("unhealthy_threshold", 3);
        Schema stateSchema = schema.getField("state").schema().getTypes().get(1);
        GenericRecord result = new GenericData.Record(schema);
        result.put("ts", TS.toEpochMilli());
        result.put("source", "alb");
        result.put("lb", "app/prod-web/50dc6c495c0c9188");
        result.put("target_group", "prod-web-tg");
        result.put("target", "i-0abc123");
        result.put("target_ip", "10.0.1.17");
        result.put("port", 8080);
        result.put("az", "us-east-1a");
        result.put("outcome", new GenericData.EnumSymbol(schema.getField("outcome").schema(), "timeout"));
        result.put("latency_ms", 2140);
        result.put("status_code", null);
        result.put("state", new GenericData.EnumSymbol(stateSchema, "unhealthy"));
        result.put("reason", "Target.Timeout");
        result.put("check", check);
        result.put("registered_at", REGISTERED.toEpochMilli());
        result.put("active_servers_left", null);
        return result;
    }

    @Test
    void theSerializerWritesMagicByteBigEndianSchemaIdAndTheAvroBinaryOfTheRecord() throws IOException {
        int id = 0x01020304;
        SpecificAvroSerializer<HealthCheckResult> serializer = new SpecificAvroSerializer<>(new FixedIdRegistry(id));
        serializer.configure(java.util.Map.of(), false);

        byte[] actual = serializer.serialize(TOPIC, knownResult());

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(new byte[] {0x00, 0x01, 0x02, 0x03, 0x04});
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(expected, null);
        Schema schema = HealthCheckResult.getClassSchema();
        new GenericDatumWriter<GenericRecord>(schema).write(knownResultAsGeneric(schema), encoder);
        encoder.flush();
        assertThat(actual).isEqualTo(expected.toByteArray());
    }

    @Test
    void aRecordSurvivesTheRoundTripThroughTheRegistry() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        SpecificAvroSerde<HealthCheckResult> serde = new SpecificAvroSerde<>(HealthCheckResult.class, registry);

        byte[] bytes = serde.serializer().serialize(TOPIC, knownResult());
        HealthCheckResult back = serde.deserializer().deserialize(TOPIC, bytes);

        assertThat(back).isEqualTo(knownResult());
        assertThat(registry.getLatest(TOPIC + "-value").id()).isEqualTo(WireFormat.schemaId(bytes));
    }

    @Test
    void aValueWrittenWithAnOlderSchemaIsReadIntoTheNewerClassWithDefaults() throws IOException {
        Schema older = new Schema.Parser().parse("""
                {"type":"record","name":"HealthCheckResult","namespace":"io.hcwatch.avro.v1","fields":[
                  {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
                  {"name":"target_group","type":"string"},
                  {"name":"target","type":"string"},
                  {"name":"outcome","type":{"type":"enum","name":"CheckOutcome",
                    "symbols":["pass","timeout","http_status","connect_error","other"],"default":"other"}},
                  {"name":"latency_ms","type":["null","int"],"default":null}]}""");
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        int id = registry.register(TOPIC + "-value", older);
        GenericRecord old = new GenericData.Record(older);
        old.put("ts", TS.toEpochMilli());
        old.put("target_group", "prod-web-tg");
        old.put("target", "i-0abc123");
        old.put("outcome", new GenericData.EnumSymbol(older.getField("outcome").schema(), "pass"));
        old.put("latency_ms", 12);

        HealthCheckResult read = new SpecificAvroDeserializer<>(HealthCheckResult.class, registry)
                .deserialize(TOPIC, frame(id, older, old));

        assertThat(read.getTs()).isEqualTo(TS);
        assertThat(read.getTargetGroup()).isEqualTo("prod-web-tg");
        assertThat(read.getOutcome()).isEqualTo(CheckOutcome.pass);
        assertThat(read.getLatencyMs()).isEqualTo(12);
        assertThat(read.getState()).isNull();
        assertThat(read.getCheck()).isNull();
    }

    @Test
    void textThatIsNotWireFormatIsRejectedNamingTheMagicByte() {
        byte[] json = "{\"ts\":\"2026-03-03T14:32:45Z\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        assertThatThrownBy(() -> deserializer().deserialize(TOPIC, json))
                .isInstanceOf(SerializationException.class)
                .hasMessage("not Confluent wire format: magic byte is 123, expected 0");
    }

    @Test
    void aValueShorterThanTheHeaderIsRejectedWithItsLength() {
        assertThatThrownBy(() -> deserializer().deserialize(TOPIC, new byte[] {0, 0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessage("not Confluent wire format: 3 bytes, need at least 5");
    }

    @Test
    void aTruncatedPayloadIsRejectedNamingTheTypeSchemaAndTopic() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        byte[] whole = new SpecificAvroSerializer<HealthCheckResult>(registry).serialize(TOPIC, knownResult());
        byte[] truncated = Arrays.copyOf(whole, whole.length - 10);

        assertThatThrownBy(() -> new SpecificAvroDeserializer<>(HealthCheckResult.class, registry).deserialize(TOPIC, truncated))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("could not decode HealthCheckResult with writer schema 1 from topic " + TOPIC);
    }

    @Test
    void bytesLeftOverAfterTheRecordAreRejected() {
        InMemorySchemaRegistry registry = new InMemorySchemaRegistry();
        byte[] whole = new SpecificAvroSerializer<HealthCheckResult>(registry).serialize(TOPIC, knownResult());
        byte[] padded = Arrays.copyOf(whole, whole.length + 3);

        assertThatThrownBy(() -> new SpecificAvroDeserializer<>(HealthCheckResult.class, registry).deserialize(TOPIC, padded))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("hold more than one HealthCheckResult");
    }

    @Test
    void anIdTheRegistryDoesNotKnowIsRejectedWithTheRegistrysAnswerAsCause() {
        byte[] unknownId = {0, 0, 0, 0, 99, 2, 4, 6};

        assertThatThrownBy(() -> deserializer().deserialize(TOPIC, unknownId))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("writer schema 99")
                .hasCauseInstanceOf(SchemaRegistryException.class);
    }

    private static SpecificAvroDeserializer<HealthCheckResult> deserializer() {
        return new SpecificAvroDeserializer<>(HealthCheckResult.class, new InMemorySchemaRegistry());
    }

    private static byte[] frame(int id, Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    /** A registry that hands out one id, so the header bytes are known in advance. */
    private record FixedIdRegistry(int id) implements SchemaRegistryClient {
        @Override
        public int register(String subject, Schema schema) {
            return id;
        }

        @Override
        public Schema getById(int schemaId) {
            throw new UnsupportedOperationException("serializer test only");
        }

        @Override
        public RegisteredSchema getLatest(String subject) {
            throw new UnsupportedOperationException("serializer test only");
        }

        @Override
        public RegisteredSchema lookup(String subject, Schema schema) {
            return new RegisteredSchema(subject, id, 1, schema);
        }

        @Override
        public boolean testCompatibility(String subject, Schema schema) {
            return true;
        }
    }
}
