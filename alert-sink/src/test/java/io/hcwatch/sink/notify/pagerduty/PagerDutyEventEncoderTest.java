package io.hcwatch.sink.notify.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.IncidentChange;
import io.hcwatch.avro.v1.IncidentMember;
import io.hcwatch.sink.Alerts;
import io.hcwatch.sink.notify.Page;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PagerDutyEventEncoderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final RoutingKey KEY = new RoutingKey("0123456789abcdef0123456789abcdef", "TEST_KEY");
    private final PagerDutyEventEncoder encoder = new PagerDutyEventEncoder("hcwatch");

    private JsonNode encode(Alert alert) throws IOException {
        return MAPPER.readTree(encoder.encode(Page.of(alert), KEY));
    }

    @Test
    void aFiringAlertBecomesATriggerWithTheCommonEventFormatFields() throws IOException {
        JsonNode event = encode(Alerts.firing("prod-web-tg"));

        assertThat(event.path("routing_key").asText()).isEqualTo(KEY.reveal());
        assertThat(event.path("event_action").asText()).isEqualTo("trigger");
        assertThat(event.path("dedup_key").asText()).isEqualTo("correlated_failure/prod-web-tg");
        JsonNode payload = event.path("payload");
        assertThat(payload.path("summary").asText()).startsWith("11/18 targets of prod-web-tg");
        assertThat(payload.path("source").asText()).isEqualTo("app/prod-web/50dc6c495c0c9188");
        assertThat(payload.path("severity").asText()).isEqualTo("critical");
        assertThat(payload.path("timestamp").asText()).isEqualTo("2026-03-03T14:33:10Z");
        assertThat(payload.path("component").asText()).isEqualTo("prod-web-tg");
        assertThat(payload.has("group")).as("no zone in scope, so no group").isFalse();
        assertThat(payload.path("class").asText()).isEqualTo("correlated_failure");
        assertThat(payload.path("custom_details").path("details").path("failing").asText()).isEqualTo("11");
        assertThat(payload.path("custom_details").path("scope").path("target_group").asText()).isEqualTo("prod-web-tg");
        assertThat(payload.path("custom_details").path("alert_id").asText()).isEqualTo("a-prod-web-tg");
        assertThat(event.path("links").get(0).path("href").asText())
                .isEqualTo("https://runbooks.example/runbooks/correlated-failure.md");
        assertThat(PagerDutyStandIn.validate(event)).isEmpty();
    }

    @Test
    void anHaproxyAlertIsSourcedAtItsHostAndFrontend() throws IOException {
        Alert alert = Alerts.correlatedFailure("unused").setType("socket_slot_exhaustion")
                .setScope(AlertScope.newBuilder().setHost("lb1").setFrontend("hc-ping").build()).build();

        JsonNode payload = encode(alert).path("payload");

        assertThat(payload.path("source").asText()).isEqualTo("lb1");
        assertThat(payload.path("component").asText()).isEqualTo("hc-ping");
    }

    @Test
    void aResolvedAlertSendsOnlyWhatPagerDutyNeedsToResolve() throws IOException {
        JsonNode event = encode(Alerts.resolved("prod-web-tg"));

        assertThat(event.properties()).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("routing_key", "dedup_key", "event_action");
        assertThat(event.path("event_action").asText()).isEqualTo("resolve");
        assertThat(PagerDutyStandIn.validate(event)).isEmpty();
    }

    @Test
    void truncatesALongSummaryByCharactersWithAnEllipsisNeverSplittingASurrogatePair() throws IOException {
        String summary = "é".repeat(1000) + "🔥".repeat(100);

        String sent = encode(Alerts.correlatedFailure("tg").setSummary(summary).build()).path("payload").path("summary").asText();

        assertThat(sent.codePointCount(0, sent.length())).isEqualTo(1024);
        assertThat(sent).startsWith("é".repeat(1000)).endsWith("🔥…");
        assertThat(sent.substring(1000, sent.length() - 1)).isEqualTo("🔥".repeat(23));
    }

    @Test
    void leavesASummaryOfExactlyTheLimitAlone() {
        String summary = "x".repeat(1024);

        assertThat(PagerDutyEventEncoder.truncate(summary, 1024)).isSameAs(summary);
    }

    @Test
    void hashesADedupKeyOverTheLimitStablyKeepingAReadablePrefix() {
        String longKey = "client_flood/lb1/hc-ping/" + "2001:db8::".repeat(40);
        String otherLongKey = longKey + "x";

        String hashed = PagerDutyEventEncoder.dedupKey(longKey);

        assertThat(hashed).hasSize(255).startsWith("client_flood/lb1/hc-ping/").contains("~sha256:");
        assertThat(PagerDutyEventEncoder.dedupKey(longKey)).isEqualTo(hashed);
        assertThat(PagerDutyEventEncoder.dedupKey(otherLongKey)).isNotEqualTo(hashed);
        assertThat(PagerDutyEventEncoder.dedupKey("correlated_failure/tg")).isEqualTo("correlated_failure/tg");
        assertThat(PagerDutyEventEncoder.dedupKey("k".repeat(255))).isEqualTo("k".repeat(255));
    }

    @Test
    void replacesOversizedCustomDetailsWithANoteAndStillSends() throws IOException {
        Map<String, String> huge = new HashMap<>();
        for (int i = 0; i < 600; i++) {
            huge.put("target_" + i, "x".repeat(1000));
        }
        Alert alert = Alerts.correlatedFailure("tg").setDetails(huge).build();

        byte[] bytes = encoder.encode(Page.of(alert), KEY);
        JsonNode event = MAPPER.readTree(bytes);

        assertThat(bytes.length).isLessThanOrEqualTo(PagerDutyEventEncoder.MAX_EVENT_BYTES);
        assertThat(event.path("payload").path("custom_details").path("note").asText())
                .startsWith("custom_details removed: the event was").contains("alert_id a-tg");
        assertThat(event.path("payload").path("summary").asText()).isEqualTo(alert.getSummary());
        assertThat(PagerDutyStandIn.validate(event)).isEmpty();
    }

    private static Incident incident(IncidentChange change) {
        Instant opened = Instant.parse("2026-03-03T14:32:00Z");
        return Incident.newBuilder()
                .setIncidentId("5b0e7c1a-0000-3000-8000-000000000001").setIncidentKey("target_group/prod-web-tg")
                .setChange(change).setReason(change.name()).setUpdates(0).setSeverity("critical")
                .setEventTime(opened.plusSeconds(186)).setOpenedAt(opened).setScopeKind("target_group").setScopeName("prod-web-tg")
                .setHeadlineType("health_check_config_risk").setHeadlineKey("health_check_config_risk/prod-web-tg")
                .setSummary("health check timeout of prod-web-tg cut to 2s, under 10x the peak p99 2.8s")
                .setMembers(List.of(
                        IncidentMember.newBuilder().setDedupKey("health_check_config_risk/prod-web-tg").setType("health_check_config_risk")
                                .setRole("cause").setSeverity("critical").setFirstFired(opened).setEpisodes(1).setSummary("cut").build(),
                        IncidentMember.newBuilder().setDedupKey("correlated_failure/prod-web-tg").setType("correlated_failure")
                                .setRole("mechanism").setSeverity("critical").setFirstFired(opened.plusSeconds(186))
                                .setResolved(opened.plusSeconds(900)).setEpisodes(2).setSummary("11/18 failing").build()))
                .setEvidence(Map.of("recommended_timeout_ms", "28000", "zones", "us-east-1a,us-east-1b"))
                .setRunbookUrl("https://example.invalid/runbooks/health-check-config-risk.md")
                .build();
    }

    @Test
    void anIncidentPageIsATriggerOnItsKeyHeadedByItsCauseWithTheTimelineInItsDetails() throws IOException {
        JsonNode event = MAPPER.readTree(encoder.encode(Page.of(incident(IncidentChange.opened)), KEY));

        assertThat(PagerDutyStandIn.validate(event)).isEmpty();
        assertThat(event.path("event_action").asText()).isEqualTo("trigger");
        assertThat(event.path("dedup_key").asText()).isEqualTo("target_group/prod-web-tg");
        JsonNode payload = event.path("payload");
        assertThat(payload.path("class").asText()).isEqualTo("health_check_config_risk");
        assertThat(payload.path("severity").asText()).isEqualTo("critical");
        assertThat(payload.path("source").asText()).isEqualTo("prod-web-tg");
        assertThat(payload.path("group").asText()).isEqualTo("us-east-1a,us-east-1b");
        assertThat(payload.path("timestamp").asText()).isEqualTo("2026-03-03T14:35:06Z");
        JsonNode details = payload.path("custom_details");
        assertThat(details.path("incident_id").asText()).isEqualTo("5b0e7c1a-0000-3000-8000-000000000001");
        assertThat(details.path("evidence").path("recommended_timeout_ms").asText()).isEqualTo("28000");
        assertThat(details.path("members")).hasSize(2);
        assertThat(details.path("members").get(1).path("resolved").asText()).isEqualTo("2026-03-03T14:47:00Z");
        assertThat(details.path("members").get(0).path("resolved").isNull()).isTrue();
        assertThat(event.path("links").get(0).path("text").asText()).isEqualTo("Runbook: health_check_config_risk");
    }

    @Test
    void anIncidentsResolveCarriesOnlyItsKey() throws IOException {
        JsonNode event = MAPPER.readTree(encoder.encode(Page.of(incident(IncidentChange.resolved)), KEY));

        assertThat(PagerDutyStandIn.validate(event)).isEmpty();
        assertThat(event.path("event_action").asText()).isEqualTo("resolve");
        assertThat(event.path("dedup_key").asText()).isEqualTo("target_group/prod-web-tg");
        assertThat(event.has("payload")).isFalse();
    }
}
