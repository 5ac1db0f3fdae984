package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.parse.AlbHealthCheckLogParser;
import io.hcwatch.parse.ParseResult;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A target the ALB still reports in state {@code initial} is not judged until it leaves it, unless a
 * check names a failure. Each row feeds one new target's health-check log entries (status,
 * status_code and reason_code, as the ALB health-check log writes them) every 10 s from T1 beside
 * an established fleet that keeps passing, then looks at the target 10 s after its last entry.
 */
class RegistryInitialStateTest {

    private static final long T1 = T0 + 120_000;
    private static final String TARGET = "10.0.9.9:8080";
    private final AlbHealthCheckLogParser parser = new AlbHealthCheckLogParser();

    @ParameterizedTest(name = "{0} -> {1}, last check failed {2}, failing {3}: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # entries (status code reason; ...), each 10 s apart                           | state     | failed | failing | why
            initial - Elb.RegistrationInProgress                                           | initial   | false  | false   | registering: no verdict
            initial 200 Elb.InitialHealthChecking;initial 200 Elb.InitialHealthChecking    | initial   | false  | false   | answered 200, not yet healthy: no verdict either way
            initial 200 ResponseCodeMatched                                                | initial   | false  | false   | a matched answer in initial is not yet healthy
            initial 200 Elb.InitialHealthChecking*66                                       | initial   | false  | false   | stuck registering past the new-target age: still no failure
            initial 200 Elb.InitialHealthChecking;healthy 200 -                            | healthy   | false  | false   | judged once it leaves initial
            initial - Target.Timeout;initial - Target.Timeout                              | initial   | true   | false   | a named failure in initial counts (new: not yet among the failing)
            initial - Target.Timeout*66                                                    | initial   | true   | true    | failing its checks past the new-target age
            initial 200 Elb.InitialHealthChecking;unhealthy 503 Target.ResponseCodeMismatch | unhealthy | true   | true    | left initial as unhealthy
            """)
    void aTargetInInitialIsJudgedOnlyOnANamedFailure(String entries, String state, boolean failed, boolean failing,
                                                     String why) {
        Fleet fleet = Fleet.alb().healthy("a=3", T0);
        long at = T1;
        for (String entry : expand(entries)) {
            fleet.healthy("a=3", at);
            fleet.apply(parse(at, entry));
            at += 10_000;
        }
        TargetRecord t = fleet.state.targets().get(TARGET);
        assertThat(t.state).as(why).isEqualTo(state);
        assertThat(t.lastCheckFailed()).as(why).isEqualTo(failed);
        assertThat(fleet.failingTargets(at).targets()).as(why).extracting(r -> r.id)
                .containsExactlyElementsOf(failing ? java.util.List.of(TARGET) : java.util.List.of());
        assertThat(fleet.state.healthy()).as(why).isEqualTo("healthy".equals(state) ? 4 : 3);
    }

    /** {@code "a;b*3"} is a, b, b, b. */
    private static java.util.List<String> expand(String entries) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String e : entries.split(";")) {
            String[] repeat = e.trim().split("\\*");
            int n = repeat.length == 2 ? Integer.parseInt(repeat[1]) : 1;
            for (int i = 0; i < n; i++) {
                out.add(repeat[0]);
            }
        }
        return out;
    }

    private HealthCheckResult parse(long at, String statusCodeReason) {
        String line = "http " + Instant.ofEpochMilli(at) + " 0.003 " + TARGET
                + " arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/" + Fleet.TG + "/6d0ecf831eec9f09 "
                + statusCodeReason;
        ParseResult<HealthCheckResult> r = parser.parse(line);
        assertThat(r).as(line).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<HealthCheckResult>) r).value();
    }
}
