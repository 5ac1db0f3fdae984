package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.serde.AlertJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AlertJsonTest {

    @Test
    void writesTheFieldsInSpecOrderWithUtcTimestampsAndNullScopeMembers() {
        String json = AlertJson.toJson(Alerts.firing("prod-web-tg"));

        assertThat(json).isEqualTo("{\"alert_id\":\"a-prod-web-tg\",\"dedup_key\":\"correlated_failure/prod-web-tg\","
                + "\"type\":\"correlated_failure\",\"severity\":\"critical\",\"status\":\"firing\","
                + "\"event_time\":\"2026-03-03T14:33:10Z\",\"window_start\":\"2026-03-03T14:32:30Z\","
                + "\"window_end\":\"2026-03-03T14:33:10.250Z\","
                + "\"scope\":{\"lb\":\"app/prod-web/50dc6c495c0c9188\",\"target_group\":\"prod-web-tg\",\"zone\":null,"
                + "\"host\":null,\"frontend\":null,\"client\":null,\"target\":null},"
                + "\"summary\":\"11/18 targets of prod-web-tg failed health checks within 40s across 3 zones (reason Target.Timeout)\","
                + "\"details\":{\"failing\":\"11\",\"registered\":\"18\",\"zones\":\"us-east-1a,us-east-1b,us-east-1c\"},"
                + "\"runbook_url\":\"https://runbooks.example/runbooks/correlated-failure.md\"}");
    }

    @Test
    void writesAbsentWindowsAndRunbookAsNullAndEscapesText() {
        Alert alert = Alerts.correlatedFailure("tg")
                .setWindowStart(null).setWindowEnd(null).setRunbookUrl(null)
                .setSummary("line1\n\"quoted\" ✓")
                .build();

        String json = AlertJson.toJson(alert);

        assertThat(json).contains("\"window_start\":null,\"window_end\":null")
                .contains("\"runbook_url\":null")
                .contains("\"summary\":\"line1\\n\\\"quoted\\\" ✓\"")
                .doesNotContain("\n");
    }

    @Test
    void readsBackWhatItWrites() {
        Alert alert = Alerts.correlatedFailure("prod-web-tg")
                .setScope(AlertScope.newBuilder().setHost("lb1").setFrontend("hc-ping").setClient("2001:db8::/64").build())
                .setWindowEnd(null)
                .build();

        assertThat(AlertJson.fromJson(AlertJson.toJson(alert))).isEqualTo(alert);
    }

    @Test
    void readsBackATargetScopeAndReadsAlertsWrittenBeforeScopesHadTargets() {
        Alert alert = Alerts.correlatedFailure("prod-web-tg")
                .setType("gray_failure")
                .setScope(AlertScope.newBuilder().setTargetGroup("prod-web-tg").setZone("us-east-1b").setTarget("i-0abc").build())
                .build();
        String json = AlertJson.toJson(alert);

        assertThat(json).contains("\"client\":null,\"target\":\"i-0abc\"}");
        assertThat(AlertJson.fromJson(json)).isEqualTo(alert);
        assertThat(AlertJson.fromJson(json.replace(",\"target\":\"i-0abc\"", "")).getScope().getTarget()).isNull();
    }

    @Test
    void namesTheFieldThatIsMissingOrMalformed() {
        String good = AlertJson.toJson(Alerts.firing("tg"));

        assertThatThrownBy(() -> AlertJson.fromJson(good.replace("\"dedup_key\":\"correlated_failure/tg\",", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("dedup_key is required");
        assertThatThrownBy(() -> AlertJson.fromJson(good.replace("\"severity\":\"critical\"", "\"severity\":\"sev1\"")))
                .hasMessageStartingWith("severity is 'sev1', expected one of");
        assertThatThrownBy(() -> AlertJson.fromJson(good.replace("2026-03-03T14:33:10Z", "yesterday")))
                .hasMessageStartingWith("event_time is 'yesterday'");
        assertThatThrownBy(() -> AlertJson.fromJson(good.replace("\"failing\":\"11\"", "\"failing\":11")))
                .hasMessage("details.failing must be a string, got NUMBER");
        assertThatThrownBy(() -> AlertJson.fromJson("{not json"))
                .hasMessageStartingWith("alert is not valid JSON");
    }

    @Test
    void keepsMillisecondsOnlyWhenThereAreAny() {
        Alert alert = Alerts.correlatedFailure("tg").setEventTime(Instant.parse("2026-03-03T14:33:10.120Z")).build();

        assertThat(AlertJson.toJson(alert)).contains("\"event_time\":\"2026-03-03T14:33:10.120Z\"");
    }
}
