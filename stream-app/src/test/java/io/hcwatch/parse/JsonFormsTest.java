package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonFormsTest {

    private final HealthCheckResultJson checks = new HealthCheckResultJson();
    private final LbConfigJson configs = new LbConfigJson();

    @Test
    void readsTheSpecExampleOfAHealthCheckResult() {
        HealthCheckResult r = ok(checks.parse(Samples.lines("health-check-results.jsonl").get(0)));
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:45.120Z"));
        assertThat(r.getTargetGroup()).isEqualTo("prod-web-tg");
        assertThat(r.getTarget()).isEqualTo("i-0abc123");
        assertThat(r.getPort()).isEqualTo(8080);
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.timeout);
        assertThat(r.getLatencyMs()).isEqualTo(2140);
        assertThat(r.getStatusCode()).isNull();
        assertThat(r.getState()).isEqualTo(TargetState.unhealthy);
        assertThat(r.getCheck().getTimeoutMs()).isEqualTo(2000);
        assertThat(r.getRegisteredAt()).isEqualTo(Instant.parse("2026-03-03T14:30:00Z"));
    }

    @Test
    void onlyTheRequiredFieldsAreNeededAndUnknownOnesAreIgnored() {
        HealthCheckResult r = ok(checks.parse(Samples.lines("health-check-results.jsonl").get(1)));
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:45Z"));
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass);
        assertThat(r.getState()).isNull();
        assertThat(r.getCheck()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bad_json|{\"ts\":",
        "bad_json|[1,2]",
        "bad_json|{\"ts\":\"2026-03-03T14:32:45Z\"} trailing",
        "missing_field|{\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\"}",
        "missing_field|{\"ts\":\"2026-03-03T14:32:45Z\",\"target\":\"t\",\"outcome\":\"pass\"}",
        "missing_field|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":null,\"outcome\":\"pass\"}",
        "missing_field|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\"}",
        "bad_enum|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"PASS\"}",
        "bad_enum|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"state\":\"sick\"}",
        "bad_type|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"latency_ms\":\"12\"}",
        "bad_type|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"port\":1.5}",
        "bad_type|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"check\":\"/health\"}",
        "bad_number|{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"port\":70000}",
        "bad_timestamp|{\"ts\":\"yesterday\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\"}",
        "bad_timestamp|{\"ts\":\"2026-03-03T14:32:45\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\"}",
    })
    void invalidHealthCheckJsonIsRejectedWithTheFieldNamed(String reason, String json) {
        assertThat(checks.parse(json)).isInstanceOfSatisfying(ParseResult.Rejected.class,
                r -> assertThat(r.reason()).as(r.error()).isEqualTo(reason));
    }

    @Test
    void rejectionMessagesNameTheField() {
        ParseResult.Rejected<?> r = (ParseResult.Rejected<?>) checks.parse(
                "{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",\"check\":{\"timeout_ms\":\"2s\"}}");
        assertThat(r.error()).contains("check.timeout_ms").contains("2s").contains("an integer");
    }

    @Test
    void readsAllThreeKindsOfLbConfig() {
        List<LbConfig> all = Samples.lines("lb-config.jsonl").stream().map(l -> ok(configs.parse(l))).toList();
        assertThat(all).extracting(LbConfig::getKind)
                .containsExactly(ConfigKind.target_group, ConfigKind.haproxy_frontend, ConfigKind.haproxy_process);
        LbConfig tg = all.get(0);
        assertThat(tg.getCrossZone()).isTrue();
        assertThat(tg.getRegisteredTargets()).isEqualTo(18);
        assertThat(tg.getUnhealthyStateRouting().getMinHealthyCount()).isEqualTo(1);
        assertThat(tg.getUnhealthyStateRouting().getMinHealthyPercent()).isNull();
        assertThat(tg.getHealthCheck().getTimeoutMs()).isEqualTo(2000);
        assertThat(all.get(1).getMaxconn()).isEqualTo(2000);
        assertThat(all.get(2).getHost()).isEqualTo("lb1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "missing_field|{\"kind\":\"haproxy_process\",\"id\":\"lb1\"}",
        "missing_field|{\"id\":\"lb1\",\"ts\":\"2026-03-03T00:00:00Z\"}",
        "missing_field|{\"kind\":\"haproxy_process\",\"ts\":\"2026-03-03T00:00:00Z\"}",
        "bad_enum|{\"kind\":\"nlb\",\"id\":\"lb1\",\"ts\":\"2026-03-03T00:00:00Z\"}",
        "bad_type|{\"kind\":\"haproxy_process\",\"id\":\"lb1\",\"ts\":\"2026-03-03T00:00:00Z\",\"cross_zone\":\"yes\"}",
        "bad_number|{\"kind\":\"target_group\",\"id\":\"tg\",\"ts\":\"2026-03-03T00:00:00Z\",\"dns_failover\":{\"min_healthy_percent\":150}}",
        "bad_json|not json",
    })
    void invalidLbConfigJsonIsRejected(String reason, String json) {
        assertThat(configs.parse(json)).isInstanceOfSatisfying(ParseResult.Rejected.class,
                r -> assertThat(r.reason()).as(r.error()).isEqualTo(reason));
    }

    @Test
    void writersProduceWhatTheReadersReadBackEqual() {
        for (String line : Samples.lines("health-check-results.jsonl")) {
            HealthCheckResult r = ok(checks.parse(line));
            assertThat(checks.parse(HealthCheckResultJson.write(r))).isEqualTo(ParseResult.ok(r));
        }
        for (String line : Samples.lines("lb-config.jsonl")) {
            LbConfig c = ok(configs.parse(line));
            assertThat(configs.parse(LbConfigJson.write(c))).isEqualTo(ParseResult.ok(c));
        }
    }

    private static <T> T ok(ParseResult<T> result) {
        assertThat(result).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<T>) result).value();
    }
}
