package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.AlbRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Every line and every expected value of shared/fixtures/peer-logs/alb. */
class AlbPeerFixturesConformanceTest {

    private static final Pattern TIMES =
            Pattern.compile("times \\(req/target/resp\\)=`([^`]*)` / `([^`]*)` / `([^`]*)`");
    private static final Set<String> CHECKED = Set.of("type", "time", "elb", "client", "target",
            "times (req/target/resp)", "elb_status_code", "target_status_code", "target_group_arn", "error_reason",
            "classification", "classification_reason", "conn_trace_id", "transformed_host", "transformed_uri",
            "request_transform_status", "matched_rule_priority", "actions_executed");

    private final AlbAccessLogParser parser = new AlbAccessLogParser();

    @Test
    void everyPeerLineParsesToTheValuesItsSourcesExpect() {
        Path alb = PeerFixtures.requireFolder().resolve("alb");
        List<String> lines = PeerFixtures.lines(alb.resolve("lines.txt"));
        List<PeerFixtures.Expectation> expectations = PeerFixtures.expectations(alb.resolve("expected.md"));
        assertThat(expectations).hasSize(lines.size());

        SoftAssertions soft = new SoftAssertions();
        for (PeerFixtures.Expectation e : expectations) {
            String label = "L" + e.line();
            ParseResult<AlbRequest> result = parser.parse(lines.get(e.line() - 1));
            soft.assertThat(result).as(label).isInstanceOf(ParseResult.Ok.class);
            if (!(result instanceof ParseResult.Ok<AlbRequest> ok)) {
                continue;
            }
            AlbRequest r = ok.value();
            soft.assertThat(e.values().keySet()).as(label + " keys").isSubsetOf(CHECKED);
            soft.assertThat(r.getFieldCount()).as(label + " field count").isEqualTo(e.fields());
            for (Map.Entry<String, String> kv : e.values().entrySet()) {
                check(soft, label + " " + kv.getKey(), r, kv.getKey(), kv.getValue());
            }
            Matcher times = TIMES.matcher(String.join("\n", e.rawLines()));
            soft.assertThat(times.find()).as(label + " has times").isTrue();
            soft.assertThat(r.getRequestProcessingTime()).as(label + " req time").isEqualTo(seconds(times.group(1)));
            soft.assertThat(r.getTargetProcessingTime()).as(label + " target time").isEqualTo(seconds(times.group(2)));
            soft.assertThat(r.getResponseProcessingTime()).as(label + " resp time").isEqualTo(seconds(times.group(3)));
            String arn = r.getTargetGroupArn();
            String expectedName = arn == null ? null : arn.replaceFirst(".*:targetgroup/([^/]+)/.*", "$1");
            soft.assertThat(r.getTargetGroup()).as(label + " target group name").isEqualTo(expectedName);
        }
        soft.assertAll();
    }

    private static void check(SoftAssertions soft, String label, AlbRequest r, String key, String value) {
        switch (key) {
            case "type" -> soft.assertThat(r.getType()).as(label).isEqualTo(value);
            case "time" -> soft.assertThat(r.getTime()).as(label).isEqualTo(Instant.parse(value));
            case "elb" -> soft.assertThat(r.getElb()).as(label).isEqualTo(value);
            case "client" -> soft.assertThat(address(r.getClientIp(), r.getClientPort())).as(label)
                    .isEqualTo(unbracketed(value));
            case "target" -> soft.assertThat(address(r.getTargetIp(), r.getTargetPort())).as(label)
                    .isEqualTo(unbracketed(value));
            case "elb_status_code" -> soft.assertThat(r.getElbStatusCode()).as(label).isEqualTo(integer(value));
            case "target_status_code" -> soft.assertThat(r.getTargetStatusCode()).as(label).isEqualTo(integer(value));
            case "matched_rule_priority" -> soft.assertThat(r.getMatchedRulePriority()).as(label).isEqualTo(integer(value));
            case "target_group_arn" -> soft.assertThat(r.getTargetGroupArn()).as(label).isEqualTo(text(value));
            case "error_reason" -> soft.assertThat(r.getErrorReason()).as(label).isEqualTo(text(value));
            case "classification" -> soft.assertThat(r.getClassification()).as(label).isEqualTo(text(value));
            case "classification_reason" -> soft.assertThat(r.getClassificationReason()).as(label).isEqualTo(text(value));
            case "conn_trace_id" -> soft.assertThat(r.getConnTraceId()).as(label).isEqualTo(text(value));
            case "transformed_host" -> soft.assertThat(r.getTransformedHost()).as(label).isEqualTo(text(value));
            case "transformed_uri" -> soft.assertThat(r.getTransformedUri()).as(label).isEqualTo(text(value));
            case "request_transform_status" -> soft.assertThat(r.getRequestTransformStatus()).as(label)
                    .isEqualTo(text(value));
            case "actions_executed" -> soft.assertThat(r.getActionsExecuted()).as(label).isEqualTo(text(value));
            case "times (req/target/resp)" -> { } // checked with all three values above
            default -> soft.fail(label + ": expectation key not understood");
        }
    }

    private static String address(String ip, Integer port) {
        return ip == null ? "-" : ip + ":" + port;
    }

    /** The fixtures write IPv6 both bracketed and bare; the record keeps the address without brackets. */
    private static String unbracketed(String value) {
        return value.startsWith("[") ? value.replaceFirst("^\\[(.*)]:(\\d+)$", "$1:$2") : value;
    }

    private static String text(String value) {
        return value.equals("-") ? null : value;
    }

    private static Integer integer(String value) {
        return value.equals("-") || value.equals("-1") ? null : Integer.valueOf(value);
    }

    private static Double seconds(String value) {
        return value.equals("-1") ? null : Double.valueOf(value);
    }

    @Test
    void negativeLinesAreRejectedForTheRightReason() {
        Path alb = PeerFixtures.requireFolder().resolve("alb");
        List<String> lines = PeerFixtures.lines(alb.resolve("negative-lines.txt"));
        // N1 glued quote; N2-N5 NLB "tls"; N6-N8 connection logs; N9 type "invalid"; N10 3 fields; N11-N15 Classic ELB
        String[] reasons = {
            RejectReason.BAD_QUOTING, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE,
            RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE,
            RejectReason.UNKNOWN_TYPE, RejectReason.FIELD_COUNT, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE,
            RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE, RejectReason.UNKNOWN_TYPE
        };
        assertThat(lines).hasSize(reasons.length);
        SoftAssertions soft = new SoftAssertions();
        for (int i = 0; i < lines.size(); i++) {
            ParseResult<AlbRequest> result = parser.parse(lines.get(i));
            soft.assertThat(result).as("N" + (i + 1)).isInstanceOf(ParseResult.Rejected.class);
            if (result instanceof ParseResult.Rejected<AlbRequest> rejected) {
                soft.assertThat(rejected.reason()).as("N" + (i + 1) + " " + rejected.error()).isEqualTo(reasons[i]);
            }
        }
        soft.assertAll();
    }
}
