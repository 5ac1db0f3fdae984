package io.hcwatch.sink.consume;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.sink.notify.Page;
import org.apache.kafka.common.serialization.Deserializer;

/** Reads one record's value as the page the sink delivers: an incident page or an alert, by the topic it consumes. */
@FunctionalInterface
public interface PageDecoder {

    /** @return null for a record without a value; throws what the deserializer throws on bytes it cannot read */
    Page decode(String topic, byte[] value);

    static PageDecoder incidents(Deserializer<Incident> deserializer) {
        return (topic, value) -> {
            Incident incident = deserializer.deserialize(topic, value);
            return incident == null ? null : Page.of(incident);
        };
    }

    static PageDecoder alerts(Deserializer<Alert> deserializer) {
        return (topic, value) -> {
            Alert alert = deserializer.deserialize(topic, value);
            return alert == null ? null : Page.of(alert);
        };
    }
}
