package io.hcwatch.sink.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.Alerts;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.DeliveryResult;
import io.hcwatch.sink.notify.Notifier;
import io.hcwatch.sink.notify.Page;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class AlertRecordHandlerTest {

    private static final Map<String, String> SERDE = Map.of("schema.registry.url", "mock://alert-record-handler-test");

    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private AlertRecordHandler handlerAnswering(DeliveryResult answer) {
        SpecificAvroSerializer<DeadLetter> letters = new SpecificAvroSerializer<>();
        letters.configure(SERDE, false);
        SpecificAvroDeserializer<Alert> alerts = new SpecificAvroDeserializer<>(Alert.class);
        alerts.configure(SERDE, false);
        Notifier pagerDuty = new Notifier() {
            @Override
            public String name() {
                return "pagerduty";
            }

            @Override
            public DeliveryResult deliver(Page page) {
                return answer;
            }
        };
        return new AlertRecordHandler(PageDecoder.alerts(alerts), List.of(pagerDuty),
                new DeadLetterWriter(producer, letters, "alerts-dlq", "alerts", Clock.systemUTC(), Duration.ofSeconds(5)),
                new DeliveryMetrics(registry), Clock.systemUTC());
    }

    private static ConsumerRecord<byte[], byte[]> resolveRecord() {
        SpecificAvroSerializer<Alert> serializer = new SpecificAvroSerializer<>();
        serializer.configure(SERDE, false);
        return new ConsumerRecord<>("alerts", 0, 3L, "k".getBytes(StandardCharsets.UTF_8),
                serializer.serialize("alerts", Alerts.resolved("tg-a")));
    }

    @Test
    void aResolveThatCouldStillGoThroughIsNeverDeadLetteredAndMustNotBeCommitted() {
        AlertRecordHandler handler = handlerAnswering(DeliveryResult.retryable("pagerduty_503", "5xx", "HTTP 503"));

        assertThatThrownBy(() -> handler.handle(resolveRecord())).as("thrown: the record is not committed")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("HTTP 503");
        assertThat(producer.history()).isEmpty();
        assertThat(registry.find(DeliveryMetrics.DEAD_LETTERED).counters()).isEmpty();
    }

    @Test
    void aRefusalIsDeadLetteredWithItsReason() throws Exception {
        AlertRecordHandler handler = handlerAnswering(DeliveryResult.permanent("pagerduty_400", "4xx", "HTTP 400: invalid"));

        handler.handle(resolveRecord());

        assertThat(producer.history()).hasSize(1);
        assertThat(registry.get(DeliveryMetrics.DEAD_LETTERED).tag("status_class", "4xx").counter().count()).isOne();
    }
}
