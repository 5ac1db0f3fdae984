package io.hcwatch.it;

import static io.hcwatch.it.IncidentFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.SpecificAvroSerde;
import io.hcwatch.serde.SpecificAvroSerializer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The project's registry server stopped for a minute while Avro health checks of a whole incident
 * flow in and the stream app has yet to fetch their schema and register the alerts' schema: before,
 * every input was dead-lettered as bad_avro (and the first alert could not be serialised).
 */
class RegistryOutageIT {

    private static final int FLEETS = 3;
    private static final Duration OUTAGE = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(150);
    private final IncidentFixture fixture = new IncidentFixture(FLEETS);

    private static Map<String, String> config() {
        // compare on event time only, and let the recovery resolve before the input ends
        return Map.of("detect.silence.enabled", "false", "detect.alert.cool-down", "20s");
    }

    private static boolean all(List<Alert> alerts, AlertStatus status) {
        return alerts.stream().filter(a -> a.getType().equals("correlated_failure") && a.getStatus() == status)
                .map(Alert::getDedupKey).distinct().count() >= FLEETS;
    }

    @Test
    void aMinuteWithoutTheRegistryDelaysTheIncidentsAlertsButLosesNoneAndDeadLettersNothing() throws Exception {
        try (LiveHarness h = new LiveHarness(3)) {
            // the collectors registered the writer schema before the outage; the app has not fetched it yet
            SpecificAvroSerializer<HealthCheckResult> collector = new SpecificAvroSerializer<>(h.registry.registry());
            String topic = h.topics.input(io.hcwatch.topology.Source.HEALTH);
            List<Telemetry> incident = new ArrayList<>();
            incident.addAll(fixture.checks(T0, T0 + 60_000, false, r -> collector.serialize(topic, r)));
            incident.addAll(fixture.checks(T0 + 60_000, T0 + 100_000, true, r -> collector.serialize(topic, r)));
            incident.addAll(fixture.checks(T0 + 100_000, T0 + 200_000, false, r -> collector.serialize(topic, r)));
            int port = URI.create(h.registry.url()).getPort();

            StreamApp app = new StreamApp(StreamAppConfig.load(h.appConfig("outage", config())));
            try {
                app.start();
                Awaitility.await().atMost(WAIT).until(app::isReady);
                h.registry.stop();
                h.produce(incident);

                Awaitility.await().atMost(WAIT).until(() -> gauge(app, StreamApp.REGISTRY_UNAVAILABLE) == 1);
                assertThat(app.isReady()).as("/ready while waiting for the registry").isFalse();
                // the outage lasts; meanwhile no stream thread dies and the client keeps running
                Awaitility.await().during(OUTAGE).atMost(OUTAGE.plusSeconds(10)).until(() ->
                        app.registry().get(StreamApp.THREADS_REPLACED).counter().count() == 0
                                && app.state().isRunningOrRebalancing());

                try (SchemaRegistryServer again = new SchemaRegistryServer(h.registry.registry(), port).start();
                     LiveHarness.TopicReader<Alert> alerts = h.reader(h.topics.alerts(), reading(Alert.class, again));
                     LiveHarness.TopicReader<DeadLetter> dead = h.reader(h.topics.deadLetters(),
                             reading(DeadLetter.class, again))) {
                    Awaitility.await().atMost(WAIT).until(() -> all(alerts.poll(), AlertStatus.resolved));
                    assertThat(all(alerts.poll(), AlertStatus.firing)).isTrue();
                    assertThat(dead.poll()).as("dead letters").isEmpty();
                    assertThat(gauge(app, StreamApp.REGISTRY_UNAVAILABLE)).isZero();
                    assertThat(app.registry().get(StreamApp.THREADS_REPLACED).counter().count()).isZero();
                    Awaitility.await().atMost(WAIT).until(app::isReady);
                }
            } finally {
                app.close();
            }
        }
    }

    private static <T extends SpecificRecord> Deserializer<T> reading(Class<T> type, SchemaRegistryServer registry) {
        return SpecificAvroSerde.forValues(type, Map.of("schema.registry.url", registry.url())).deserializer();
    }

    private static double gauge(StreamApp app, String name) {
        return app.registry().get(name).gauge().value();
    }
}
