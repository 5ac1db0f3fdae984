package io.hcwatch.sink.notify.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The stand-in is only as strict as its schema: these show the schema refuses what PagerDuty would. */
class PagerDutyEventsSchemaTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    private static ObjectNode validTrigger() {
        ObjectNode event = MAPPER.createObjectNode();
        event.put("routing_key", KEY).put("event_action", "trigger").put("dedup_key", "correlated_failure/tg");
        event.putObject("payload").put("summary", "s").put("source", "lb").put("severity", "critical")
                .put("timestamp", "2026-03-03T14:33:10Z");
        return event;
    }

    private static ObjectNode with(Consumer<ObjectNode> change) {
        ObjectNode event = validTrigger();
        change.accept(event);
        return event;
    }

    @Test
    void acceptsPagerDutysOwnExamplesShape() {
        assertThat(PagerDutyStandIn.validate(validTrigger())).isEmpty();
        assertThat(PagerDutyStandIn.validate(MAPPER.createObjectNode()
                .put("routing_key", KEY).put("event_action", "resolve").put("dedup_key", "k"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"summary", "source", "severity"})
    void refusesATriggerWithoutARequiredPayloadField(String field) {
        assertThat(PagerDutyStandIn.validate(with(e -> ((ObjectNode) e.get("payload")).remove(field)))).isNotEmpty();
    }

    @Test
    void refusesWhatTheDocumentedEnumsAndLimitsExclude() {
        assertThat(PagerDutyStandIn.validate(with(e -> ((ObjectNode) e.get("payload")).put("severity", "high")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.put("event_action", "fire")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.put("dedup_key", "k".repeat(256))))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> ((ObjectNode) e.get("payload")).put("summary", "s".repeat(1025))))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.put("routing_key", "short")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> ((ObjectNode) e.get("payload")).put("timestamp", "yesterday")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.remove("payload")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.put("summary", "misplaced")))).isNotEmpty();
        assertThat(PagerDutyStandIn.validate(with(e -> e.putArray("links").addObject().put("text", "no href")))).isNotEmpty();
    }

    @Test
    void refusesAResolveWithoutTheDedupKeyItResolves() {
        JsonNode resolve = MAPPER.createObjectNode().put("routing_key", KEY).put("event_action", "resolve");

        assertThat(PagerDutyStandIn.validate(resolve)).isNotEmpty();
    }
}
