package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioReplay;
import io.hcwatch.sink.notify.pagerduty.PagerDutyStandIn;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sink with its defaults pages incidents: a scenario's incident pages, as the stream app's processors
 * make them, go through a real broker and the sink to the PagerDuty stand-in, which must receive per
 * affected scope one PagerDuty incident: a trigger first, at most 5 events, a resolve last once every
 * alert of the scope has resolved (the fail-open is rolled back; the timeout cut is still failing when
 * the scenario ends) and never before, and exactly the events the pages call for, in their order.
 */
class IncidentPagingIT {

    private static final String ROUTING_KEY = "R0UT1NGK3Y0123456789abcdefABCDEF";
    private static final String REGISTRY = "incident-paging-it";
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private EmbeddedKafkaBroker kafka;
    private PagerDutyStandIn pagerDuty;
    private SinkApp sink;

    @BeforeEach
    void start() {
        kafka = EmbeddedKafkaBroker.start();
        kafka.createTopics(2, "incidents", "alerts-dlq");
        pagerDuty = PagerDutyStandIn.start();
    }

    @AfterEach
    void stop() {
        if (sink != null) {
            sink.close();
        }
        pagerDuty.close();
        kafka.close();
        InMemorySchemaRegistry.dropScope(REGISTRY);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Scenario.class, names = {"TIMEOUT_CUT", "FAIL_OPEN"})
    void pagerDutyGetsOneIncidentPerAffectedScopeOpenedOnceAndResolvedOnce(Scenario scenario) throws Exception {
        ScenarioReplay.Result result = ScenarioReplay.run(scenario);
        List<Incident> pages = result.incidents();
        Set<String> affected = affectedScopes(scenario, result.alerts());
        Set<String> recovered = recoveredScopes(result.alerts());
        if (scenario == Scenario.FAIL_OPEN) {
            assertThat(recovered).as("the fail-open is rolled back within the scenario").isEqualTo(affected);
        }
        produce(pages);

        sink = new SinkApp(config(), Map.of("PAGERDUTY_ROUTING_KEY", ROUTING_KEY)::get, KafkaConsumer::new,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        sink.start();
        await().atMost(PATIENCE).until(() -> pagerDuty.accepted().size() >= pages.size());

        assertThat(pagerDuty.violations()).isEmpty();
        Map<String, List<String>> received = new TreeMap<>();
        for (JsonNode event : pagerDuty.accepted()) {
            received.computeIfAbsent(event.path("dedup_key").asText(), k -> new ArrayList<>()).add(event.path("event_action").asText());
        }
        assertThat(received.keySet()).as("one PagerDuty incident per affected scope").isEqualTo(affected);
        received.forEach((key, actions) -> {
            assertThat(actions).as(key).hasSizeLessThanOrEqualTo(5);
            assertThat(actions.get(0)).as(key).isEqualTo("trigger");
            assertThat(actions.subList(0, actions.size() - 1)).as(key + ": a resolve only at the end").doesNotContain("resolve");
            assertThat(actions.get(actions.size() - 1)).as(key + ": resolved once every alert of it resolved")
                    .isEqualTo(recovered.contains(key) ? "resolve" : "trigger");
        });
        Map<String, List<String>> expected = new TreeMap<>();
        for (Incident i : pages) {
            expected.computeIfAbsent(i.getIncidentKey(), k -> new ArrayList<>())
                    .add(i.getChange() == IncidentChange.resolved ? "resolve" : "trigger");
        }
        assertThat(received).as("exactly the events the pages call for").isEqualTo(expected);
        JsonNode open = pagerDuty.accepted().get(0);
        assertThat(open.path("payload").path("custom_details").path("members").size()).isPositive();
        assertThat(open.path("payload").path("class").asText()).isEqualTo(pages.get(0).getHeadlineType());
    }

    /**
     * The scopes the scenario affects, read off its alerts without the incident code: the target group
     * of fleet alerts, the frontend of slot exhaustion and floods.
     */
    private static Set<String> affectedScopes(Scenario scenario, List<Alert> alerts) {
        Set<String> scopes = alerts.stream().filter(a -> a.getStatus() == AlertStatus.firing).map(a -> a.getScope().getTargetGroup() != null
                        ? "target_group/" + a.getScope().getTargetGroup() : "frontend/" + a.getScope().getFrontend())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        if (scenario == Scenario.TIMEOUT_CUT) {
            assertThat(scopes).as("the timeout cut is on one target group").hasSize(1);
        }
        return scopes;
    }

    /** Scopes every alert of which ended resolved, read off the alerts alone. */
    private static Set<String> recoveredScopes(List<Alert> alerts) {
        Map<String, AlertStatus> last = new TreeMap<>();
        alerts.forEach(a -> last.put(a.getDedupKey(), a.getStatus()));
        Map<String, Boolean> all = new TreeMap<>();
        for (Alert a : alerts) {
            String scope = a.getScope().getTargetGroup() != null ? "target_group/" + a.getScope().getTargetGroup()
                    : "frontend/" + a.getScope().getFrontend();
            all.merge(scope, last.get(a.getDedupKey()) == AlertStatus.resolved, Boolean::logicalAnd);
        }
        return all.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private void produce(List<Incident> pages) throws Exception {
        SpecificAvroSerializer<Incident> serializer = new SpecificAvroSerializer<>();
        serializer.configure(Map.of("schema.registry.url", "mock://" + REGISTRY), false);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (Incident page : pages) {
                producer.send(new ProducerRecord<>("incidents", page.getIncidentKey().getBytes(StandardCharsets.UTF_8),
                        serializer.serialize("incidents", page))).get();
            }
        }
    }

    private Properties config() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("schema.registry.url", "mock://" + REGISTRY);
        p.setProperty("group.id", "incident-paging-it");
        p.setProperty("sinks", "pagerduty");
        p.setProperty("pagerduty.endpoint", pagerDuty.endpoint());
        p.setProperty("metrics.port", "-1");
        return p;
    }
}
