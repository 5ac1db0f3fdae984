package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlbHealthCheckLogParserTest {

    private final AlbHealthCheckLogParser parser = new AlbHealthCheckLogParser();
    private final List<String> samples = Samples.lines("alb-health-check.log");

    private HealthCheckResult sample(int i) {
        ParseResult<HealthCheckResult> result = parser.parse(samples.get(i));
        assertThat(result).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<HealthCheckResult>) result).value();
    }

    @Test
    void aPassingCheckOfAnIpTarget() {
        HealthCheckResult r = sample(0);
        assertThat(r.getTs()).isEqualTo(Instant.parse("2026-03-03T14:32:45.120Z"));
        assertThat(r.getSource()).isEqualTo("alb");
        assertThat(r.getTargetGroup()).isEqualTo("prod-web-tg");
        assertThat(r.getTarget()).isEqualTo("10.0.1.17:8080");
        assertThat(r.getTargetIp()).isEqualTo("10.0.1.17");
        assertThat(r.getPort()).isEqualTo(8080);
        assertThat(r.getLatencyMs()).isEqualTo(4);
        assertThat(r.getStatusCode()).isEqualTo(200);
        assertThat(r.getState()).isEqualTo(TargetState.healthy);
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass);
        assertThat(r.getReason()).isNull();
    }

    @Test
    void reasonCodesDecideTheOutcome() {
        assertThat(sample(1).getOutcome()).isEqualTo(CheckOutcome.timeout);
        assertThat(sample(1).getLatencyMs()).isEqualTo(2001);
        assertThat(sample(2).getOutcome()).isEqualTo(CheckOutcome.http_status);
        assertThat(sample(2).getStatusCode()).isEqualTo(503);
        assertThat(sample(3).getOutcome()).isEqualTo(CheckOutcome.connect_error);
        assertThat(sample(3).getTargetIp()).isEqualTo("fd00:10::17");
        assertThat(sample(3).getLatencyMs()).isNull();
    }

    @Test
    void targetGroupIsTheNameWhateverFormTheIdTakes() {
        assertThat(samples.subList(0, 5)).allSatisfy(line ->
                assertThat(((ParseResult.Ok<HealthCheckResult>) parser.parse(line)).value().getTargetGroup())
                        .isEqualTo("prod-web-tg"));
    }

    @Test
    void anInstanceTargetHasNoAddressAndInitialStateIsKept() {
        HealthCheckResult r = sample(4);
        assertThat(r.getTarget()).isEqualTo("i-0abc1234def567890");
        assertThat(r.getTargetIp()).isNull();
        assertThat(r.getState()).isEqualTo(TargetState.initial);
        assertThat(r.getReason()).isEqualTo("Elb.InitialHealthChecking");
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.other);
    }

    /**
     * Each state the ELB API gives a target, with the reason codes it documents for that state
     * (TargetHealth: {@code Elb.*} and {@code Target.*}) and the check results of the EC2
     * ApplicationStatusReason codes. In {@code initial} only a named failure is an outcome the fleet
     * counts (see Registry.hasVerdict); {@code other} there means "no verdict yet".
     */
    @ParameterizedTest(name = "{0} {1} {2} -> {3} {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # status           | status_code | reason_code                     | state       | outcome
            healthy            | 200         | -                               | healthy     | pass
            healthy            | 200         | ResponseCodeMatched             | healthy     | pass
            initial            | -           | Elb.RegistrationInProgress      | initial     | other
            initial            | 200         | Elb.InitialHealthChecking       | initial     | other
            initial            | 200         | ResponseCodeMatched             | initial     | pass
            initial            | -           | Target.Timeout                  | initial     | timeout
            initial            | 503         | ResponseCodeMismatch            | initial     | http_status
            unhealthy          | -           | Target.Timeout                  | unhealthy   | timeout
            unhealthy          | -           | ResponseTimeout                 | unhealthy   | timeout
            unhealthy          | -           | ConnectionTimeout               | unhealthy   | timeout
            unhealthy          | 503         | Target.ResponseCodeMismatch     | unhealthy   | http_status
            unhealthy          | -           | ConnectionRefused               | unhealthy   | connect_error
            unhealthy          | -           | ConnectionReset                 | unhealthy   | connect_error
            unhealthy          | 500         | Target.FailedHealthChecks       | unhealthy   | http_status
            unhealthy          | -           | Target.FailedHealthChecks       | unhealthy   | other
            unhealthy          | -           | Elb.InternalError               | unhealthy   | other
            draining           | -           | Target.DeregistrationInProgress | draining    | other
            unused             | -           | Target.NotInUse                 | unused      | other
            unavailable        | -           | Elb.InternalError               | unavailable | other
            """)
    void statusStatusCodeAndReasonCodeMapToStateAndOutcome(String status, String code, String reason,
                                                           TargetState state, CheckOutcome outcome) {
        String line = "http 2026-03-03T14:32:47.130000Z 0.003 10.0.2.31:8080"
                + " arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/prod-web-tg/6d0ecf831eec9f09 "
                + status + " " + code + " " + reason;
        ParseResult<HealthCheckResult> result = parser.parse(line);
        assertThat(result).as(line).isInstanceOf(ParseResult.Ok.class);
        HealthCheckResult r = ((ParseResult.Ok<HealthCheckResult>) result).value();
        assertThat(r.getState()).as(line).isEqualTo(state);
        assertThat(r.getOutcome()).as(line).isEqualTo(outcome);
    }

    @Test
    void latencyWithAUnitAndTrailingFieldsAreAccepted() {
        HealthCheckResult r = sample(5);
        assertThat(r.getLatencyMs()).isEqualTo(15);
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass);
    }

    @Test
    void writerOutputReadsBackEqual() {
        for (int i = 0; i < 5; i++) {
            HealthCheckResult r = sample(i);
            assertThat(parser.parse(AlbHealthCheckLogFormat.format(r))).isEqualTo(ParseResult.ok(r));
        }
    }

    @Test
    void rejectsWhatIsNotAHealthCheckEntry() {
        assertThat(reason("http 2026-03-03T14:32:45Z 0.004 10.0.1.17:8080 tg healthy")).isEqualTo(RejectReason.FIELD_COUNT);
        assertThat(reason("HTTP 2026-03-03T14:32:45Z 0.004 10.0.1.17:8080 tg healthy 200 -")).isEqualTo(RejectReason.UNKNOWN_TYPE);
        assertThat(reason("http 2026-13-03T14:32:45Z 0.004 10.0.1.17:8080 tg healthy 200 -")).isEqualTo(RejectReason.BAD_TIMESTAMP);
        assertThat(reason("http 2026-03-03T14:32:45Z slow 10.0.1.17:8080 tg healthy 200 -")).isEqualTo(RejectReason.BAD_NUMBER);
        assertThat(reason("http 2026-03-03T14:32:45Z 0.004 10.0.1.17:8080 tg healthy 2000 -")).isEqualTo(RejectReason.BAD_NUMBER);
        assertThat(reason("http 2026-03-03T14:32:45Z 0.004 - tg healthy 200 -")).isEqualTo(RejectReason.BAD_FIELD);
        // an access-log line is not a health-check entry
        assertThat(reason(Samples.lines("alb-access.log").get(0))).isEqualTo(RejectReason.BAD_NUMBER);
    }

    private String reason(String line) {
        return ((ParseResult.Rejected<HealthCheckResult>) parser.parse(line)).reason();
    }
}
