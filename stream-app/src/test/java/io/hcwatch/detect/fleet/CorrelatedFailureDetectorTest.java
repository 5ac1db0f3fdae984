package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.Judging.severities;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Severity;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * correlated_failure: ≥ max(3, 30% of known) established targets failing within 60s across ≥ 2
 * zones (or zones unknown); critical at ≥ 50% or below the routing minimum. Every fleet passes a
 * check at T0; the failing targets time out at T1.
 */
class CorrelatedFailureDetectorTest {

    private static final long T1 = T0 + 60_000;
    private final CorrelatedFailureDetector detector = new CorrelatedFailureDetector(Fleet.SETTINGS, Fleet.DIAGNOSTICIAN);

    @ParameterizedTest(name = "{0} (registered {1}), {2} failing -> {3}: {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # targets    | registered | failing       | severity | why
            a=4,b=3,c=3  | -          | a=1,b=1       | none     | 2 of 10: below the floor of 3
            a=4,b=3,c=3  | -          | a=1,b=1,c=1   | WARNING  | 3 of 10: the floor, and exactly 30% of 10
            a=7,b=7,c=6  | -          | a=2,b=2,c=1   | none     | 5 of 20: below 30% (6)
            a=7,b=7,c=6  | -          | a=2,b=2,c=2   | WARNING  | 6 of 20: 30%
            a=7,b=7,c=7  | -          | a=2,b=2,c=2   | none     | 6 of 21: 30% of 21 is 6.3
            a=7,b=7,c=7  | -          | a=3,b=2,c=2   | WARNING  | 7 of 21
            a=4,b=3,c=3  | 20         | a=2,b=2,c=1   | none     | 5 of 20 registered (LbConfig) though hcwatch saw 10
            a=4,b=3,c=3  | 20         | a=2,b=2,c=2   | WARNING  | 6 of 20 registered: 30%, though 6 of the 10 seen
            a=4,b=3,c=3  | -          | a=2,b=1,c=1   | WARNING  | 4 of 10: 40%
            a=4,b=3,c=3  | -          | a=2,b=2,c=1   | CRITICAL | 5 of 10: 50%
            a=4,b=3,c=3  | -          | a=3,b=2,c=1   | CRITICAL | 6 of 10
            a=2,b=2,c=2  | -          | a=1,b=1,c=1   | CRITICAL | 3 of 6: the floor is already half
            """)
    void firesWhenAtLeastMaxOfThreeAndThirtyPercentOfKnownTargetsFail(String targets, Integer registered, String failing,
                                                                      String severity, String why) {
        Fleet fleet = Fleet.alb();
        if (registered != null) {
            fleet.apply(Checks.lbConfig(Fleet.TG, T0).setRegisteredTargets(registered).build());
        }
        fleet.healthy(targets, T0).failing(failing, T1);
        assertThat(fleet.judge(detector, T1 + 10_000)).extracting(Finding::severity).as(why)
                .containsExactlyElementsOf(severities(severity));
    }

    @ParameterizedTest(name = "{0}, {1} failing -> fires {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # targets    | failing       | fires | why
            a=6,b=6      | a=4           | false | one zone: zonal_failure's case
            a=6,b=6      | a=3,b=1       | false | a lone straggler outside the failing zone spreads nothing
            a=6,b=6      | a=2,b=2       | true  | two zones
            a=3,b=3,c=3  | a=2,b=1,c=1   | true  | two failing outside the largest zone
            a=3,b=3,c=3  | a=1,b=1,c=1   | true  | three zones
            ?=10         | ?=3           | true  | zones unknown always qualify
            a=5,?=5      | a=3           | false | one known zone
            a=5,?=5      | a=2,?=1       | true  | a failing target without a zone qualifies
            """)
    void theFailuresMustSpanTwoZonesNotCountingALoneStraggler(String targets, String failing, boolean fires, String why) {
        Fleet fleet = Fleet.alb().healthy(targets, T0).failing(failing, T1);
        assertThat(fleet.judge(detector, T1 + 10_000)).as(why).hasSize(fires ? 1 : 0);
    }

    @ParameterizedTest(name = "last failed check at T1+{0}ms, judged at T1+{1}ms -> fires {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # last failure | judged at | fires
            0              | 0         | true
            0              | 59999     | true
            0              | 60000     | false
            50000          | 100000    | true
            """)
    void failuresCountWhileTheirLatestFailedCheckIsInsideTheWindow(long lastFailure, long judgedAt, boolean fires) {
        Fleet fleet = Fleet.alb().healthy("a=4,b=3,c=3", T0).failing("a=1,b=1,c=1", T1);
        if (lastFailure > 0) {
            fleet.failing("a=1,b=1,c=1", T1 + lastFailure);
        }
        assertThat(fleet.judge(detector, T1 + judgedAt)).hasSize(fires ? 1 : 0);
    }

    @ParameterizedTest(name = "replacement {0}, registered {1}ms before judging -> {2} of {3} failing, fires {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # replacement n-0 | registered before | failing | known | fires | why
            -                 | -                 | 3       | 10    | true  | 3 of 10 established
            initial           | 60000             | 3       | 11    | false | warming up: not counted, and 3 of 11 is below 30% (4)
            unhealthy         | 60000             | 4       | 11    | true  | already marked unhealthy: it failed
            initial           | 599999            | 3       | 11    | false | still new
            initial           | 600000            | 4       | 11    | true  | registered 10 min ago: no longer new
            """)
    void replacementsWarmingUpDoNotCountUnlessAlreadyMarkedUnhealthy(TargetState replacement, Long registeredBefore,
                                                                     int failing, int known, boolean fires, String why) {
        long now = T1 + 10_000;
        Fleet fleet = Fleet.alb().healthy("a=4,b=3,c=3", T0).failing("a=1,b=1,c=1", T1);
        if (replacement != null) {
            fleet.apply(fleet.check("a", "n-0", T1, CheckOutcome.timeout, 2001).setState(replacement)
                    .setRegisteredAt(Instant.ofEpochMilli(now - registeredBefore)).build());
        }
        List<Finding> findings = fleet.judge(detector, now);
        assertThat(fleet.failingTargets(now).size()).as(why).isEqualTo(failing);
        assertThat(fleet.state.targets()).hasSize(known);
        assertThat(findings).as(why).hasSize(fires ? 1 : 0)
                .allSatisfy(f -> assertThat(f.details()).containsEntry("failing", String.valueOf(failing)));
    }

    @ParameterizedTest(name = "routing threshold {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # routing threshold | severity | below minimum | why
            aws default         | WARNING  | false         | count 1: 7 healthy are plenty
            70%                 | WARNING  | false         | 7 healthy of 10 meet 70%
            80%                 | CRITICAL | true          | 7 healthy of 10 are below 80%
            count 8             | CRITICAL | true          | 7 healthy are below 8
            count 7             | WARNING  | false         | 7 healthy meet 7
            """)
    void itIsCriticalBelowTheRoutingMinimumEvenWhenFewerThanHalfFail(String threshold, Severity severity, boolean below,
                                                                      String why) {
        Fleet fleet = Fleet.alb();
        if (threshold.endsWith("%")) {
            fleet.apply(Checks.lbConfig(Fleet.TG, T0)
                    .setUnhealthyStateRouting(Checks.percent(Double.parseDouble(threshold.replace("%", "")))).build());
        } else if (threshold.startsWith("count ")) {
            fleet.apply(Checks.lbConfig(Fleet.TG, T0)
                    .setUnhealthyStateRouting(Checks.count(Integer.parseInt(threshold.substring(6)))).build());
        }
        fleet.healthy("a=4,b=3,c=3", T0).failing("a=1,b=1,c=1", T1);
        assertThat(fleet.judge(detector, T1 + 10_000)).as(why).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(severity);
            assertThat(f.details()).containsEntry("below_minimum_healthy", String.valueOf(below));
        });
    }

    /**
     * Hysteresis: 10 targets pass every 10 s from five minutes before T0; from T1 six of them fail (60%: critical) for
     * three rounds, from T1+30s four (40%). The fleet was down to 4 healthy of 10 at the step of
     * T1+20s, so it stays critical for correlated.critical-hold (5 min) after that step instead
     * of stepping down to warning at once and back up with the next failure.
     */
    @ParameterizedTest(name = "judged at T1+{0}s -> {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # judged at (s) | severity | why
            10              | CRITICAL | 6 of 10 failing
            40              | CRITICAL | 4 of 10 failing now; 4 of 10 were healthy at the step of T1+20s
            320             | CRITICAL | the step of T1+20s is 5 min ago
            330             | WARNING  | every step of the last 5 min had 6 of 10 healthy
            """)
    void severityStaysCriticalForTheHoldAfterTheFleetWasDownToHalfItsTargets(long judgedAt, Severity severity, String why) {
        Fleet fleet = Fleet.alb();
        for (long at = T0 - 300_000; at <= T1 + judgedAt * 1000; at += 10_000) {
            String failing = at < T1 ? "none" : at < T1 + 30_000 ? "a=2,b=2,c=2" : "a=2,b=1,c=1";
            fleet.round("a=4,b=3,c=3", failing, at).steps(at, at);
        }
        assertThat(fleet.judge(detector, T1 + judgedAt * 1000)).extracting(Finding::severity).as(why).containsExactly(severity);
    }

    /**
     * Hysteresis where the healthy count never halves: 10 targets pass every 10 s from five minutes
     * before T0; at T1 a-0 and b-0 time out and are drained at T1+5s, when two healthy replacements
     * join; from T1+10s a-1, b-1 and c-0 time out at every check. 5 of 10 failed within a minute
     * (replaced ones counted) until the replaced ones leave the window, then 3 of 10 (30%): the
     * alert stays critical while 50% of the fleet failed within correlated.critical-hold (5 min).
     */
    @ParameterizedTest(name = "judged at T1+{0}s -> {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # judged at (s) | severity | why
            10              | CRITICAL | 5 of 10 failed within a minute, 2 of them replaced
            70              | CRITICAL | 3 of 10 within a minute, 5 of 10 within the hold
            299             | CRITICAL | the replaced ones' failures at T1 are still within 5 min
            300             | WARNING  | 3 of 10 within the hold
            """)
    void severityStaysCriticalWhileHalfTheFleetFailedWithinTheHoldReplacedTargetsCounted(long judgedAt, Severity severity,
                                                                                         String why) {
        Fleet fleet = Fleet.alb();
        List<String> members = new java.util.ArrayList<>(List.of("a-0", "a-1", "a-2", "a-3", "b-0", "b-1", "b-2", "c-0", "c-1", "c-2"));
        for (long at = T0 - 300_000; at <= T1 + judgedAt * 1000; at += 10_000) {
            for (String target : members) {
                boolean fails = at == T1 ? target.endsWith("-0") && !target.startsWith("c")
                        : at > T1 && List.of("a-1", "b-1", "c-0").contains(target);
                fleet.apply(fleet.check(target.substring(0, 1), target, at, fails ? CheckOutcome.timeout : CheckOutcome.pass,
                        fails ? 2001 : 100).setState(fails ? TargetState.unhealthy : TargetState.healthy).build());
            }
            fleet.steps(at, at);
            if (at == T1) {
                for (String zone : List.of("a", "b")) {
                    fleet.apply(fleet.check(zone, zone + "-0", at + 5_000, CheckOutcome.other, 0).setState(TargetState.draining).build());
                    fleet.apply(fleet.check(zone, zone + "-9", at + 5_000, CheckOutcome.pass, 100).setState(TargetState.healthy).build());
                    members.remove(zone + "-0");
                    members.add(zone + "-9");
                }
            }
        }
        assertThat(fleet.judge(detector, T1 + judgedAt * 1000)).extracting(Finding::severity).as(why).containsExactly(severity);
    }

    @Test
    void theFindingNamesWhoFailedWhereAndSinceWhen() {
        Fleet fleet = Fleet.alb().healthy("a=4,b=3,c=3", T0).failing("a=2", T1).failing("b=2", T1 + 5_000);
        assertThat(fleet.judge(detector, T1 + 10_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.CORRELATED_FAILURE, Severity.WARNING, "correlated_failure/prod-web-tg", T1, T1 + 10_000);
            assertThat(f.scope().targetGroup()).isEqualTo(Fleet.TG);
            assertThat(f.scope().lb()).isEqualTo(Checks.LB);
            assertThat(f.holdForMillis()).isZero();
            assertThat(f.details()).containsEntry("failing", "4").containsEntry("registered", "10")
                    .containsEntry("healthy", "6").containsEntry("zones", "us-east-1a,us-east-1b")
                    .containsEntry("failing_by_zone", "us-east-1a=2,us-east-1b=2").containsEntry("reason", "Target.Timeout")
                    .containsEntry("targets", "a-0,a-1,b-0,b-1");
            assertThat(f.summary()).startsWith("4/10 targets of prod-web-tg failed health checks within 5s across 2 zones"
                    + " (reason Target.Timeout); diagnosis: ");
        });
    }
}
