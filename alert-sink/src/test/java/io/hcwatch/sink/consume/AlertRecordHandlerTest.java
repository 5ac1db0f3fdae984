package io.hcwatch.sink.consume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.serde.SchemaRegistryUnavailableException;
import io.hcwatch.serde.SerdeConfig;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.Alerts;
import io.hcwatch.sink.SinkApp;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.DeliveryResult;
import io.hcwatch.sink.notify.Notifier;
import io.hcwatch.sink.notify.Page;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
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
    private final RegistryOutage outage =
            new RegistryOutage(Clock.systemUTC(), registry, SinkApp.REGISTRY_UNAVAILABLE, SinkApp.REGISTRY_WAITING);

    private AlertRecordHandler handlerAnswering(DeliveryResult answer) {
        return handlerAnswering(answer, SERDE);
    }

    private AlertRecordHandler handlerAnswering(DeliveryResult answer, Map<String, String> alertSerde) {
        SpecificAvroSerializer<DeadLetter> letters = new SpecificAvroSerializer<>();
        letters.configure(SERDE, false);
        SpecificAvroDeserializer<Alert> alerts = new SpecificAvroDeserializer<>(Alert.class);
        alerts.configure(alertSerde, false);
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
                new DeliveryMetrics(registry), outage, Clock.systemUTC());
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

    /**
     * The project's own registry server stopped (connection refused) while an alert of a schema id
     * this sink has not fetched yet arrives: before, it was dead-lettered as undecodable and
     * committed, so a resolve was lost and the PagerDuty incident stayed open.
     */
    @Test
    void anAlertWhoseSchemaTheStoppedRegistryCannotServeIsKeptUntilTheRegistryAnswersAgain() throws Exception {
        InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
        byte[] resolve = new SpecificAvroSerializer<Alert>(schemas).serialize("alerts", Alerts.resolved("tg-a"));
        SchemaRegistryServer first = new SchemaRegistryServer(schemas).start();
        int port = URI.create(first.url()).getPort();
        first.stop();
        AlertRecordHandler handler = handlerAnswering(DeliveryResult.delivered(), Map.of(
                SerdeConfig.SCHEMA_REGISTRY_URL, "http://127.0.0.1:" + port, SerdeConfig.MAX_ATTEMPTS, "2",
                SerdeConfig.RETRY_BACKOFF_MS, "1", SerdeConfig.RETRY_BACKOFF_MAX_MS, "1"));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("alerts", 0, 3L, null, resolve);

        assertThatThrownBy(() -> handler.handle(record)).as("thrown: the record is not committed")
                .isInstanceOf(SchemaRegistryUnavailableException.class);
        assertThat(producer.history()).as("dead letters").isEmpty();
        assertThat(outage.describe()).singleElement().asString().startsWith("schema registry unavailable since ");
        assertThat(registry.get(SinkApp.REGISTRY_UNAVAILABLE).gauge().value()).isOne();

        try (SchemaRegistryServer again = new SchemaRegistryServer(schemas, port).start()) {
            handler.handle(record);
        }
        assertThat(registry.get(DeliveryMetrics.DELIVERED).counter().count()).isOne();
        assertThat(producer.history()).isEmpty();
        assertThat(outage.describe()).isEmpty();
        assertThat(registry.get(SinkApp.REGISTRY_UNAVAILABLE).gauge().value()).isZero();
    }

    /** Only an id the registry itself says does not exist (error code 40403) makes the alert bad data. */
    @Test
    void anAlertWhoseSchemaIdTheRegistryDoesNotKnowIsDeadLetteredAsUndecodable() throws Exception {
        byte[] resolve = new SpecificAvroSerializer<Alert>(new InMemorySchemaRegistry()).serialize("alerts",
                Alerts.resolved("tg-a"));
        try (SchemaRegistryServer empty = new SchemaRegistryServer(new InMemorySchemaRegistry()).start()) {
            AlertRecordHandler handler = handlerAnswering(DeliveryResult.delivered(),
                    Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, empty.url()));
            handler.handle(new ConsumerRecord<>("alerts", 0, 3L, null, resolve));
        }
        assertThat(producer.history()).hasSize(1);
        assertThat(registry.get(DeliveryMetrics.DEAD_LETTERED).tag("status_class", "undecodable").counter().count()).isOne();
        assertThat(outage.describe()).isEmpty();
    }
}
