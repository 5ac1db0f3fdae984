package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.sink.consume.AlertRecordHandler;
import io.hcwatch.sink.consume.DeadLetterWriter;
import io.hcwatch.sink.consume.PageDecoder;
import io.hcwatch.sink.notify.BlockedDeliveries;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.ManualClock;
import io.hcwatch.sink.notify.Page;
import io.hcwatch.sink.notify.RecordingSleeper;
import io.hcwatch.sink.notify.RetryingNotifier;
import io.hcwatch.sink.notify.pagerduty.PagerDutyNotifier;
import io.hcwatch.sink.notify.pagerduty.PagerDutyStandIn;
import io.hcwatch.sink.notify.pagerduty.Router;
import io.hcwatch.sink.notify.pagerduty.RoutingKeyLoader;
import io.hcwatch.testsupport.ReservedPort;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After alertmanager's secret-leak test: drive every path that logs, throws or writes text (retries,
 * a 400 whose body echoes the key, network errors, dead letters, bad configuration, toString) and
 * check that the routing key appears in none of it.
 */
class RoutingKeySecrecyTest {

    private static final String SECRET = "S3CRETr0ut1ngK3y0123456789abcdef";
    private static final String SCHEMA_REGISTRY = "mock://secrecy-test";

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final List<String> texts = new ArrayList<>();
    private PrintStream originalErr;
    private PagerDutyStandIn pagerDuty;

    @BeforeEach
    void captureLogs() {
        // slf4j-simple looks System.err up on every write, so this catches all logging from here on.
        originalErr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        pagerDuty = PagerDutyStandIn.start();
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        pagerDuty.close();
    }

    @Test
    void theRoutingKeyNeverAppearsInLogsErrorsDeadLettersOrToString(@TempDir Path dir) throws Exception {
        Map<String, String> env = Map.of("PAGERDUTY_ROUTING_KEY", SECRET);
        Router router = new Router(List.of(), new RoutingKeyLoader(env::get).load("PAGERDUTY_ROUTING_KEY"));
        ManualClock clock = new ManualClock(Instant.parse("2026-03-03T00:00:00Z"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RetryingNotifier notifier = new RetryingNotifier(
                new PagerDutyNotifier(new PagerDutyNotifier.Settings(pagerDuty.endpoint(), "hcwatch", Duration.ofSeconds(5), 120, 20),
                        router, clock, new RecordingSleeper(clock)),
                new ExponentialBackoff(Duration.ofMillis(10), Duration.ofMillis(10)),
                new DeliveryMetrics(registry), new BlockedDeliveries(clock), new RecordingSleeper(clock), () -> 0.5);
        String echo = "{\"status\":\"invalid event\",\"message\":\"routing_key " + SECRET + " is not valid\"}";
        pagerDuty.thenRespond(503, 1).respondWhen(e -> true, 400, echo);
        MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        SpecificAvroSerializer<DeadLetter> letters = new SpecificAvroSerializer<>();
        letters.configure(Map.of("schema.registry.url", SCHEMA_REGISTRY), false);
        SpecificAvroSerializer<Alert> alerts = new SpecificAvroSerializer<>();
        alerts.configure(Map.of("schema.registry.url", SCHEMA_REGISTRY), false);
        SpecificAvroDeserializer<Alert> alertReader = new SpecificAvroDeserializer<>(Alert.class);
        alertReader.configure(Map.of("schema.registry.url", SCHEMA_REGISTRY), false);
        AlertRecordHandler handler = new AlertRecordHandler(PageDecoder.alerts(alertReader), List.of(notifier),
                new DeadLetterWriter(producer, letters, "alerts-dlq", "alerts", clock, Duration.ofSeconds(5)),
                new DeliveryMetrics(registry),
                new RegistryOutage(clock, registry, SinkApp.REGISTRY_UNAVAILABLE, SinkApp.REGISTRY_WAITING), clock);

        // A 503 then a 400 whose body quotes the key: retried, then dead-lettered.
        handler.handle(new ConsumerRecord<>("alerts", 0, 7L, "k".getBytes(StandardCharsets.UTF_8),
                alerts.serialize("alerts", Alerts.firing("tg"))));
        assertThat(producer.history()).hasSize(1);
        SpecificAvroDeserializer<DeadLetter> letterReader = new SpecificAvroDeserializer<>(DeadLetter.class);
        letterReader.configure(Map.of("schema.registry.url", SCHEMA_REGISTRY), false);
        DeadLetter letter = letterReader.deserialize("alerts-dlq", producer.history().get(0).value());
        assertThat(letter.getReason()).isEqualTo("pagerduty_400");
        assertThat(letter.getError()).contains("is not valid");
        texts.add(letter.toString());

        // A network error.
        int closedPort = ReservedPort.closed();
        PagerDutyNotifier unreachable = new PagerDutyNotifier(new PagerDutyNotifier.Settings("http://127.0.0.1:" + closedPort,
                "hcwatch", Duration.ofSeconds(5), 120, 20), router, clock, new RecordingSleeper(clock));
        texts.add(unreachable.deliver(Page.of(Alerts.firing("tg"))).toString());

        // Configuration errors and descriptions.
        Path keyFile = Files.writeString(dir.resolve("key"), SECRET);
        texts.add(messageOf(() -> new RoutingKeyLoader(Map.of("K", SECRET, "K_FILE", keyFile.toString())::get).load("K")));
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", "localhost:9092");
        props.setProperty("schema.registry.url", SCHEMA_REGISTRY);
        props.setProperty("pagerduty.routes", "db");
        props.setProperty("pagerduty.route.db.routing.key.env", "PD_DB_KEY");
        texts.add(messageOf(() -> new SinkApp(props, env::get, p -> null, System.out)));
        props.setProperty("pagerduty.route.db.routing.key.env", "PAGERDUTY_ROUTING_KEY");
        SinkApp app = new SinkApp(props, env::get, p -> null, System.out);
        texts.add(app.config().toString());
        texts.add(router.toString());
        texts.add(router.keyFor(Page.of(Alerts.firing("tg"))).toString());

        String logs = captured.toString(StandardCharsets.UTF_8);
        assertThat(logs).as("the log capture works").contains("dead-lettering").contains("retrying");
        assertThat(logs).doesNotContain(SECRET);
        assertThat(texts).allSatisfy(text -> assertThat(text).doesNotContain(SECRET));
        assertThat(pagerDuty.violations()).isEmpty();
    }

    private static String messageOf(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            return e.toString();
        }
        throw new AssertionError("expected a failure");
    }
}
