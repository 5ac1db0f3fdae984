package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

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

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("rejectedSamples")
    void invalidJsonIsRejectedWithTheFieldNamed(String expected, String json, boolean config) {
        assertRejected(config ? configs.parse(json) : checks.parse(json), expected);
    }

    static Stream<Arguments> rejectedSamples() {
        return Stream.concat(
                Samples.tabbed("health-check-results-rejected.jsonl").stream().map(p -> Arguments.of(p[0], p[1], false)),
                Samples.tabbed("lb-config-rejected.jsonl").stream().map(p -> Arguments.of(p[0], p[1], true)));
    }

    @Test
    void rejectionMessagesNameTheFieldWhatItHeldAndWhatWasExpected() {
        String check = "{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\",\"target\":\"t\",\"outcome\":\"pass\",";
        assertThat(error(checks.parse(check + "\"check\":{\"timeout_ms\":\"2s\"}}"))).isEqualTo(
                "field 'check.timeout_ms' held '2s', expected a number 0..2147483647 written as JSON writes numbers"
                        + " (54, 54.2, 5.42e1): no spaces, units, '+' or hex");
        assertThat(error(checks.parse(check + "\"status_code\":99999}")))
                .isEqualTo("field 'status_code' held '99999', expected 0..999 once rounded to a whole number");
        assertThat(error(checks.parse(check + "\"latency_ms\":-0.5}")))
                .isEqualTo("field 'latency_ms' held '-0.5', expected 0..2147483647 once rounded to a whole number");
        assertThat(error(checks.parse(check + "\"port\":true}")))
                .isEqualTo("field 'port' held 'true', expected a number 0..65535, or a string holding one");
        assertThat(error(configs.parse("{\"kind\":\"target_group\",\"id\":\"tg\",\"ts\":\"2026-03-03T00:00:00Z\","
                + "\"dns_failover\":{\"min_healthy_percent\":100.5}}")))
                .isEqualTo("field 'dns_failover.min_healthy_percent' held '100.5', expected 0..100");
        assertThat(error(checks.parse(check.replace("\"2026-03-03T14:32:45Z\"", "1e20") + "\"port\":80}"))).isEqualTo(
                "field 'ts' held '1E+20', expected epoch milliseconds -62167219200000..253402300799999 (years 0000..9999)");
    }

    /** Written as a JSON number token, or (quoted) as a string holding one; -1: rejected. */
    @ParameterizedTest(name = "latency_ms {0} reads as {1}")
    @CsvSource(delimiter = '|', value = {
        "54|54", "54.2|54", "54.5|55", "54.49999999999999999999|54", "2.4999999999999999|2", "0.5|1", "0.4999|0",
        "1e3|1000", "1E3|1000", "1e+3|1000", "1.5e1|15", "5400e-2|54", "0.00054e5|54", "1e-999999999|0",
        "-0|0", "-0.0|0", "-0.4|0", "-1e-400|0", "2147483647|2147483647", "2147483646.5|2147483647",
        "2147483647.5|-1", "\"54\"|54", "\"54.6\"|55", "\"1e3\"|1000", "\"-0\"|0", "\"0\"|0", "\"-0.4\"|0",
        "\"000000000000000000000000000000000054\"|-1", "\"2147483647\"|2147483647", "\"2147483648\"|-1",
    })
    void latencyIsReadAsProducersWriteIt(String written, int expected) {
        ParseResult<HealthCheckResult> r = checks.parse("{\"ts\":\"2026-03-03T14:32:45Z\",\"target_group\":\"tg\","
                + "\"target\":\"t\",\"outcome\":\"pass\",\"latency_ms\":" + written + "}");
        if (expected < 0) {
            assertRejected(r, "bad_number latency_ms");
        } else {
            assertThat(ok(r).getLatencyMs()).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "min_healthy_percent {0} reads as {1}")
    @CsvSource(delimiter = '|', value = {
        "50|50.0", "37.5|37.5", "\"37.5\"|37.5", "\"50\"|50.0", "1e2|100.0", "0.1|0.1", "-0.0|0.0", "\"-0\"|0.0",
        "100.000000|100.0", "12.345678901234567890123|12.345678901234567890123",
    })
    void percentagesAreReadAsProducersWriteThem(String written, double expected) {
        LbConfig c = ok(configs.parse("{\"kind\":\"target_group\",\"id\":\"tg\",\"ts\":\"2026-03-03T00:00:00Z\","
                + "\"dns_failover\":{\"min_healthy_percent\":" + written + "}}"));
        // Double.compare, not isEqualTo: -0.0 equals 0.0 there, and "-0" must not come out negative
        assertThat(Double.compare(c.getDnsFailover().getMinHealthyPercent(), expected)).isZero();
    }

    @Test
    void numbersInTheSamplesAreReadAsProducersWroteThem() {
        List<HealthCheckResult> samples = Samples.lines("health-check-results.jsonl").stream()
                .map(l -> ok(checks.parse(l))).toList();
        HealthCheckResult agent = samples.get(2);
        assertThat(agent.getLatencyMs()).isEqualTo(54);
        assertThat(agent.getCheck()).isEqualTo(new CheckConfig("/health", 10_000, 2000, 3, 3));
        assertThat(agent.getActiveServersLeft()).isZero();
        HealthCheckResult go = samples.get(3);
        assertThat(go.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:46.700Z"));
        assertThat(List.of(go.getPort(), go.getLatencyMs(), go.getStatusCode(), go.getActiveServersLeft()))
                .containsExactly(8080, 12, 503, 2);
        HealthCheckResult python = samples.get(4);
        assertThat(python.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:47.120Z"));
        assertThat(python.getLatencyMs()).isEqualTo(2001);
        assertThat(python.getRegisteredAt()).isEqualTo(Instant.ofEpochMilli(1_772_500_000_000L));

        List<LbConfig> configSamples = Samples.lines("lb-config.jsonl").stream().map(l -> ok(configs.parse(l))).toList();
        LbConfig api = configSamples.get(3);
        assertThat(api.getTs()).isEqualTo(Instant.parse("2026-03-03T00:00:00Z"));
        assertThat(api.getRegisteredTargets()).isEqualTo(6);
        assertThat(api.getUnhealthyStateRouting()).isEqualTo(new Thresholds(1, 50.0));
        assertThat(api.getDnsFailover()).isEqualTo(new Thresholds(0, 37.5));
        assertThat(api.getHealthCheck()).isEqualTo(new CheckConfig("/ready", 5000, 2000, 2, 2));
        assertThat(configSamples.get(4).getMaxconn()).isEqualTo(3000);
    }

    @Test
    void readsAllThreeKindsOfLbConfig() {
        List<LbConfig> all = Samples.lines("lb-config.jsonl").stream().map(l -> ok(configs.parse(l))).toList();
        assertThat(all).extracting(LbConfig::getKind)
                .containsExactly(ConfigKind.target_group, ConfigKind.haproxy_frontend, ConfigKind.haproxy_process,
                        ConfigKind.target_group, ConfigKind.haproxy_frontend);
        LbConfig tg = all.get(0);
        assertThat(tg.getCrossZone()).isTrue();
        assertThat(tg.getRegisteredTargets()).isEqualTo(18);
        assertThat(tg.getUnhealthyStateRouting().getMinHealthyCount()).isEqualTo(1);
        assertThat(tg.getUnhealthyStateRouting().getMinHealthyPercent()).isNull();
        assertThat(tg.getHealthCheck().getTimeoutMs()).isEqualTo(2000);
        assertThat(all.get(1).getMaxconn()).isEqualTo(2000);
        assertThat(all.get(2).getHost()).isEqualTo("lb1");
    }

    @Test
    void targetZonesAndZoneCidrsAreReadAndWrittenAsObjects() {
        String json = "{\"kind\":\"target_group\",\"id\":\"web\",\"ts\":\"2026-03-03T00:00:00Z\","
                + "\"target_zones\":{\"i-0abc\":\"us-east-1a\",\"10.0.1.5:8080\":\"us-east-1a\",\"10.0.2.7\":\"us-east-1b\"},"
                + "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.1.0/24\",\"2001:db8:0:1::/64\"],\"us-east-1b\":[]}}";
        LbConfig c = ok(configs.parse(json));
        assertThat(c.getTargetZones()).containsExactly(Map.entry("i-0abc", "us-east-1a"),
                Map.entry("10.0.1.5:8080", "us-east-1a"), Map.entry("10.0.2.7", "us-east-1b"));
        assertThat(c.getZoneCidrs()).containsExactly(Map.entry("us-east-1a", List.of("10.0.1.0/24", "2001:db8:0:1::/64")),
                Map.entry("us-east-1b", List.of()));
        assertThat(LbConfigJson.write(c)).contains("\"target_zones\":{\"i-0abc\":\"us-east-1a\",",
                "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.1.0/24\",\"2001:db8:0:1::/64\"],\"us-east-1b\":[]}");
        assertThat(configs.parse(LbConfigJson.write(c))).isEqualTo(ParseResult.ok(c));
        LbConfig without = ok(configs.parse("{\"kind\":\"target_group\",\"id\":\"web\",\"ts\":\"2026-03-03T00:00:00Z\","
                + "\"target_zones\":null}"));
        assertThat(without.getTargetZones()).isNull();
        assertThat(without.getZoneCidrs()).isNull();
        assertThat(LbConfigJson.write(without)).contains("\"target_zones\":null,\"zone_cidrs\":null,\"log_format\":null}");
        LbConfig frontend = ok(configs.parse("{\"kind\":\"haproxy_frontend\",\"id\":\"lb1/www\",\"ts\":\"2026-03-03T00:00:00Z\","
                + "\"host\":\"lb1\",\"frontend\":\"www\",\"log_format\":\"{\\\"c\\\":\\\"%ci\\\"} %ft\"}"));
        assertThat(frontend.getLogFormat()).isEqualTo("{\"c\":\"%ci\"} %ft");
        assertThat(configs.parse(LbConfigJson.write(frontend))).isEqualTo(ParseResult.ok(frontend));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
        "\"target_zones\":[\"us-east-1a\"]|bad_type|target_zones",
        "\"target_zones\":{\"i-1\":7}|bad_type|target_zones.i-1",
        "\"target_zones\":{\"i-1\":\" \"}|bad_field|target_zones.i-1",
        "\"zone_cidrs\":{\"us-east-1a\":\"10.0.1.0/24\"}|bad_type|zone_cidrs.us-east-1a",
        "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.1.0\"]}|bad_address|zone_cidrs.us-east-1a",
        "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.1.0/33\"]}|bad_address|zone_cidrs.us-east-1a",
        "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.256.0/24\"]}|bad_address|zone_cidrs.us-east-1a",
        "\"zone_cidrs\":{\"us-east-1a\":[24]}|bad_type|zone_cidrs.us-east-1a",
        "\"zone_cidrs\":7|bad_type|zone_cidrs",
    })
    void malformedZoneMapsAreRejectedNamingTheField(String field, String reason, String named) {
        ParseResult<LbConfig> r = configs.parse("{\"kind\":\"target_group\",\"id\":\"web\",\"ts\":\"2026-03-03T00:00:00Z\","
                + field + "}");
        assertThat(r).isInstanceOf(ParseResult.Rejected.class);
        ParseResult.Rejected<LbConfig> rejected = (ParseResult.Rejected<LbConfig>) r;
        assertThat(rejected.reason()).isEqualTo(reason);
        assertThat(rejected.error()).contains("'" + named + "'");
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

    private static String error(ParseResult<?> result) {
        assertThat(result).isInstanceOf(ParseResult.Rejected.class);
        return ((ParseResult.Rejected<?>) result).error();
    }

    /** {@code expected}: the reason, then the field the message must name unless the input is not a JSON object. */
    private static void assertRejected(ParseResult<?> result, String expected) {
        String[] reasonAndField = expected.split(" ");
        assertThat(result).isInstanceOfSatisfying(ParseResult.Rejected.class, r -> {
            assertThat(r.reason()).as(r.error()).isEqualTo(reasonAndField[0]);
            if (reasonAndField.length > 1) {
                assertThat(r.error()).contains("field '" + reasonAndField[1] + "'");
            }
        });
    }
}
