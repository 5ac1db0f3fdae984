package io.hcwatch.topology;

import io.hcwatch.parse.ParseResult;
import io.hcwatch.serde.SchemaRegistryUnavailableException;
import io.hcwatch.parse.RejectReason;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.WireFormat;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Topics that take a record either in Confluent's wire format (magic byte 0) or as JSON: the
 * first byte tells them apart, since JSON never starts with a zero byte. {@link Decoders} wraps
 * the record in its {@link io.hcwatch.input.Decoded} kind.
 */
public final class AvroOrJsonDecoder<T extends SpecificRecord> {

    private final SpecificAvroDeserializer<T> avro;
    private final Function<byte[], ParseResult<T>> json;
    private final String topicForErrors;

    public AvroOrJsonDecoder(Class<T> type, Map<String, ?> serdeConfig, Function<byte[], ParseResult<T>> json, String topic) {
        this.avro = new SpecificAvroDeserializer<>(type);
        this.avro.configure(serdeConfig, false);
        this.json = json;
        this.topicForErrors = topic;
    }

    public ParseResult<T> decode(byte[] raw) {
        if (raw.length > 0 && raw[0] == WireFormat.MAGIC_BYTE) {
            try {
                return ParseResult.ok(avro.deserialize(topicForErrors, raw));
            } catch (SchemaRegistryUnavailableException e) {
                // Not bad data: the registry did not answer (and the serde's RegistryWait gave up, closing).
                throw e;
            } catch (SerializationException e) {
                return ParseResult.rejected(RejectReason.BAD_AVRO, e.getMessage() + (e.getCause() == null ? "" : ": " + e.getCause().getMessage()));
            } catch (RuntimeException e) {
                return ParseResult.rejected(RejectReason.BAD_AVRO, "could not read the Avro value: " + e);
            }
        }
        return json.apply(raw);
    }
}
