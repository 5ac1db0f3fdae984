package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * zonal_failure: ≥ 50% of one zone (of at least 2 targets) failing while every other zone is
 * under 10%, has something healthy and was checked since the onset, for one check interval
 * counted from the later of the zone's onset and the other zones' becoming clean. Every fleet
 * passes at T0; at T1 one round of checks fails the named targets and passes the rest.
 */
class ZonalFailureDetectorTest {

    private static final long T1 = T0 + 60_000;
    /** One check interval (registry.default-interval: no record gives one) after the round at T1. */
    private static final long NOW = T1 + 30_000;
    private final ZonalFailureDetector detector = new ZonalFailureDetector(Fleet.SETTINGS, Fleet.DIAGNOSTICIAN);

    @ParameterizedTest(name = "{0}, {1} failing -> zonal in {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # targets       | failing  | zonal in | why
            a=4,b=4,c=4     | a=1      | none     | 25% of a
            a=4,b=4,c=4     | a=2      | a        | 50% of a
            a=4,b=4,c=4     | a=4      | a        | all of a
            a=1,b=4,c=4     | a=1      | none     | a has fewer than 2 targets: not judged
            a=2,b=4,c=4     | a=1      | a        | 1 of 2
            a=4,b=10,c=11   | a=2,b=1  | none     | 10% of b fail: not under 10%
            a=4,b=11,c=11   | a=2,b=1  | a        | 9% of b fail
            a=4,b=4,c=4     | a=4,b=4  | none     | two zones failing: correlated, not zonal
            a=4,?=8         | a=4      | none     | one known zone: nothing to compare with
            a=4,b=4,?=4     | a=4,?=4  | a        | targets without a zone are left out of the comparison
            """)
    void oneZoneFailsWhileTheOthersAreNearlyClean(String targets, String failing, String zone, String why) {
        Fleet fleet = Fleet.alb().healthy(targets, T0).round(targets, failing, T1);
        assertThat(fleet.judge(detector, NOW)).as(why).extracting(f -> f.details().get("zone"))
                .containsExactlyElementsOf(zone.equals("none") ? java.util.List.of() : java.util.List.of(Fleet.az(zone)));
    }

    @ParameterizedTest(name = "zone b last checked at T1{0}ms, {1} -> fires {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # b checked at (from T1) | b's state     | fires | why
            0                        | healthy       | true  | checked with the failures
            5000                     | healthy       | true  | checked after the onset
            -1                       | healthy       | false | last checked before the onset: its checks say nothing of the fault yet
            0                        | initial       | false | nothing healthy in b: no healthy zone to compare with
            """)
    void theOtherZonesMustBeHealthyAndCheckedSinceTheOnset(long checkedAt, TargetState state, boolean fires, String why) {
        Fleet fleet = Fleet.alb().healthy("a=4", T0).failing("a=4", T1);
        for (int k = 0; k < 4; k++) {
            fleet.apply(fleet.check("b", "b-" + k, T1 + checkedAt, CheckOutcome.pass, 100).setState(state).build());
        }
        assertThat(fleet.judge(detector, NOW)).as(why).hasSize(fires ? 1 : 0);
    }

    @ParameterizedTest(name = "{0}: {1}, {2} failing -> masked {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # pool                   | targets | failing | cross_zone | masked | dns_and_fail_open
            alb, AWS defaults        | a=4,b=4 | a=4     | true       | true   | cross-zone on: the pool (4/8 healthy) meets its thresholds, so zone us-east-1a stays in DNS and no fail-open happens; its dead capacity is masked
            cross-zone on, 50%/50%   | a=4,b=6 | a=4     | true       | true   | cross-zone on: the pool (6/10 healthy) meets its thresholds, so zone us-east-1a stays in DNS and no fail-open happens; its dead capacity is masked
            cross-zone on, 50%/50%   | a=6,b=4 | a=6     | true       | false  | cross-zone on: the pool itself is below its thresholds
            cross-zone off, 50%/50%  | a=4,b=4 | a=2     | false      | false  | cross-zone off: zone judged alone (2/4 healthy): kept in DNS, no fail-open
            cross-zone off, 50%/50%  | a=4,b=4 | a=3     | false      | false  | cross-zone off: zone judged alone (1/4 healthy): removed from DNS, failing open within the zone
            haproxy                  | a=4,b=4 | a=4     | -          | -      | not an ALB target group: no DNS failover or fail-open
            """)
    void saysWhetherCrossZoneAggregationMasksTheDeadZone(String pool, String targets, String failing, String crossZone,
                                                        String masked, String verdict) {
        Fleet fleet = pool.equals("haproxy") ? Fleet.haproxy("be-web") : Fleet.alb();
        if (pool.startsWith("cross-zone")) {
            fleet.apply(Checks.targetGroupConfig(Fleet.TG, pool.startsWith("cross-zone on"), 50.0, 50.0, T0));
        }
        fleet.healthy(targets, T0).round(targets, failing, T1);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertThat(f.details().get("cross_zone")).isEqualTo(crossZone);
            assertThat(f.details().get("masked")).isEqualTo(masked);
            assertThat(f.details()).containsEntry("dns_and_fail_open", verdict);
        });
    }

    @ParameterizedTest(name = "check interval {0} -> fires {1}ms after the onset")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # check interval | fires after | why
            -                | 30000       | registry.default-interval when no record gives one
            10000            | 10000       | one check interval
            """)
    void theZoneMustHaveFailedForOneCheckInterval(Integer interval, long firesAfter, String why) {
        Fleet fleet = Fleet.alb();
        if (interval != null) {
            fleet.apply(Checks.lbConfig(Fleet.TG, T0).setHealthCheck(Checks.checkConfig(5000, interval)).build());
        }
        fleet.healthy("a=4,b=4", T0).round("a=4,b=4", "a=3", T1);
        assertThat(fleet.judge(detector, T1 + firesAfter - 1)).as(why).isEmpty();
        assertThat(fleet.judge(detector, T1 + firesAfter)).as(why).singleElement()
                .satisfies(f -> assertThat(f.holdForMillis()).as("held already: the lifecycle need not hold it again").isZero());
    }

    /**
     * The hold, with a 10 s check interval: every target passes at T0, then each event of the row
     * is a check at T1 plus its offset: {@code a=4 fail@0} fails the first four targets of a,
     * {@code b-1 pass@4000} passes b-1 alone, {@code b-1..10} b-1 to b-10. A failure is marked
     * unhealthy, a pass healthy.
     */
    @ParameterizedTest(name = "[{index}] {0}: {1} judged at +{2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # targets    | checks from T1                                                   | judged at | zonal in | why
            a=4,b=4,c=4  | a=4 fail@0; b=4 pass@3000; c=4 pass@3000                         | 9999      | none     | a has failed for less than an interval
            a=4,b=4,c=4  | a=4 fail@0; b=4 pass@3000; c=4 pass@3000                         | 10000     | a        | others clean before the onset: one interval from the onset
            a=4,b=4,c=4  | a=4 fail@0; b=4 pass@9000; c=4 pass@9500                         | 10000     | a        | the others heard of late: the hold still counts from the onset
            a=4,b=4,c=4  | a=4 fail@0; b=4 pass@3000                                        | 10000     | none     | c not heard of since the onset
            a=4,b=4,c=4  | a=4 fail@0                                                       | 25000     | none     | no other zone heard of since the onset, however long it fails
            a=4,b=4,c=4  | a=1 fail@0; a=2 fail@6000; b=4 pass@7000; c=4 pass@7000          | 10000     | none     | a reached 50% only at +6s
            a=4,b=4,c=4  | a=1 fail@0; a=2 fail@6000; b=4 pass@7000; c=4 pass@7000          | 16000     | a        | one interval after a reached 50%
            a=4,b=4,c=4  | a-0 fail@0; a-1 fail@2000; a-2 fail@5000; a-1 pass@6000; b=4 pass@3000; c=4 pass@3000 | 12000 | a | a-1 passed after a-2 began to fail: 50% failing without a break since +2s
            a=4,b=4,c=4  | a-0 fail@0; a-1 fail@2000; a-1 pass@4000; a-2 fail@5000; b=4 pass@3000; c=4 pass@3000 | 12000 | none | a-1 passed before a-2 failed: 25% from +4s to +5s
            a=4,b=4,c=4  | a-0 fail@0; a-1 fail@2000; a-1 pass@4000; a-2 fail@5000; b=4 pass@3000; c=4 pass@3000 | 15000 | a | one interval after a was back at 50%
            a=4,b=4,c=4  | b-0 fail@-2000; a=4 fail@0; b=4 pass@5000; c=4 pass@5000         | 10000     | none     | b was 25% failing until +5s: clean only since
            a=4,b=4,c=4  | b-0 fail@-2000; a=4 fail@0; b=4 pass@5000; c=4 pass@5000         | 15000     | a        | one interval after b became clean
            a=4,b=4,c=4  | a=4 fail@0; b=4 fail@0; c=4 fail@0; a=4 fail@10000; b=4 fail@10000; c=4 fail@10000; b=4 pass@20000; c=4 pass@24000 | 30000 | none | staggered recovery: a, last to be re-checked, is zonal only an interval after c recovered
            a=4,b=4,c=4  | a=4 fail@0; b=4 fail@0; c=4 fail@0; a=4 fail@10000; b=4 fail@10000; c=4 fail@10000; b=4 pass@20000; c=4 pass@24000; a=4 pass@29000 | 34000 | none | staggered recovery: a recovered within the interval
            a=4,b=4,c=4  | a=4 fail@0; b=4 fail@0; c=4 fail@0; a=4 fail@10000; b=4 fail@10000; c=4 fail@10000; b=4 pass@20000; c=4 pass@24000; a=4 fail@30000 | 34000 | none | b and c passed once of the 3 that recover them: the fleet-wide failure still spans the zones
            a=4,b=4,c=4  | a=4 fail@0; b=4 fail@0; c=4 fail@0; a=4 fail@10000; b=4 fail@10000; c=4 fail@10000; b=4 pass@20000; c=4 pass@24000; b=4 pass@25000; c=4 pass@25000; b=4 pass@26000; c=4 pass@26000; a=4 fail@30000 | 36000 | a | a still failing an interval after the others recovered (3 passes): zonal
            a=4,b=11,c=4 | b-0 fail@-5000; a=4 fail@0; b-0 fail@3000; b-1..10 pass@3000; c=4 pass@3000 | 10000 | a      | 1 of 11 in b failing all along (9%): clean before the onset
            a=4,b=11,c=4 | b-0..1 fail@-5000; a=4 fail@0; b-0 fail@3000; b-1..10 pass@3000; c=4 pass@3000 | 10000 | none | b had 2 of 11 failing until b-1 passed at +3s
            a=4,b=11,c=4 | b-0..1 fail@-5000; a=4 fail@0; b-0 fail@3000; b-1..10 pass@3000; c=4 pass@3000 | 13000 | none | b-1 passed once of the 3 that recover it: two failing in b and four in a span two zones
            a=4,b=11,c=4 | b-0..1 fail@-5000; a=4 fail@0; b-0 fail@3000; b-1..10 pass@3000; b-1 pass@4000; b-1 pass@5000; c=4 pass@3000 | 15000 | a | one interval after b-1 recovered and b came under 10%
            """)
    void theHoldCountsFromTheLaterOfTheOnsetAndTheOtherZonesBecomingClean(String targets, String checks, long judgedAt,
                                                                         String zone, String why) {
        Fleet fleet = play(targets, checks);
        assertThat(fleet.judge(detector, T1 + judgedAt)).as(why).extracting(f -> f.details().get("zone"))
                .containsExactlyElementsOf(zone.equals("none") ? java.util.List.of() : java.util.List.of(Fleet.az(zone)));
    }

    /**
     * A fleet-wide failure is correlated_failure's, even where the Auto Scaling group has already
     * replaced the failing targets of the other zones, so that what is left there looks clean
     * (issue 28: "1/2 targets of web-prod in us-east-2b are failing while other zones are healthy
     * (us-east-2a=0%)" while the whole fleet failed). Events as in the table above, and
     * {@code b-0 drain@5000}: the target is drained (state draining) and leaves.
     */
    @ParameterizedTest(name = "[{index}] {0}: {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # targets    | checks from T1                                                                                      | zonal in | why
            a=4,b=4,c=4  | a=4 fail@0; b-0..1 fail@0; b-0..1 drain@5000; b-2..3 pass@3000; c=4 pass@3000                      | none     | b's two failing targets were replaced: 6 of 12 failed across a and b, a correlated failure
            a=4,b=4,c=4  | a=4 fail@0; b-0 fail@0; b-0 drain@5000; b-1..3 pass@3000; c=4 pass@3000                           | none     | b lost a failing target to replacement: not clean, though its members pass
            a=2,b=2,c=2  | a=2 fail@0; c=2 fail@0; b-0 fail@0; a-0..1 drain@5000; c-0..1 drain@5000; a-2..3 pass@3000; b-1 pass@3000 | none | the issue's case: a and c failed and were replaced, a's replacements pass, b has 1 of 2 failing
            a=4,b=4,c=4  | a=4 fail@0; a-0 drain@5000; b=4 pass@3000; c=4 pass@3000                                          | a        | the failing zone's own replaced target: still a zone failing alone
            """)
    void aZoneIsNotFailingAloneWhileTheFleetsFailureSpansZonesReplacedTargetsCounted(String targets, String checks, String zone,
                                                                                     String why) {
        Fleet fleet = play(targets, checks);
        assertThat(fleet.judge(detector, T1 + 15_000)).as(why).extracting(f -> f.details().get("zone"))
                .containsExactlyElementsOf(zone.equals("none") ? java.util.List.of() : java.util.List.of(Fleet.az(zone)));
    }

    /** Every target passes at T0 (10 s check interval), then each event is a check at T1 plus its offset. */
    private static Fleet play(String targets, String checks) {
        Fleet fleet = Fleet.alb();
        fleet.apply(Checks.lbConfig(Fleet.TG, T0).setHealthCheck(Checks.checkConfig(5000, 10_000)).build());
        fleet.healthy(targets, T0);
        for (String event : checks.split(";")) {
            String[] whatAt = event.trim().split("@");
            String[] who = whatAt[0].trim().split(" ");
            long at = T1 + Long.parseLong(whatAt[1]);
            boolean fails = who[1].equals("fail");
            boolean drains = who[1].equals("drain");
            CheckOutcome outcome = fails ? CheckOutcome.timeout : drains ? CheckOutcome.other : CheckOutcome.pass;
            TargetState state = fails ? TargetState.unhealthy : drains ? TargetState.draining : TargetState.healthy;
            if (who[0].contains("=")) {
                fleet.checkAll(who[0], at, outcome, fails ? 2001 : 100, state);
                continue;
            }
            String zoneOf = who[0].substring(0, 1);
            String[] range = who[0].substring(2).split("\\.\\.");
            for (int k = Integer.parseInt(range[0]); k <= Integer.parseInt(range[range.length - 1]); k++) {
                fleet.apply(fleet.check(zoneOf, zoneOf + "-" + k, at, outcome, fails ? 2001 : 100).setState(state).build());
            }
        }
        return fleet;
    }

    @Test
    void theFindingNamesTheZoneItsTargetsAndTheOtherZones() {
        Fleet fleet = Fleet.alb().healthy("a=4,b=4,c=4", T0).round("a=4,b=4,c=4", "a=3", T1);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.ZONAL_FAILURE, Severity.ERROR, "zonal_failure/prod-web-tg/us-east-1a", T1, NOW);
            assertThat(f.scope().zone()).isEqualTo("us-east-1a");
            assertThat(f.details()).containsEntry("failing", "3").containsEntry("zone_targets", "4")
                    .containsEntry("zone_healthy", "1").containsEntry("other_zones_failing", "us-east-1b=0%,us-east-1c=0%")
                    .containsEntry("reason", "Target.Timeout").containsEntry("diagnosis", "zonal");
            assertThat(f.summary()).isEqualTo("3/4 targets of prod-web-tg in us-east-1a are failing while other zones are healthy"
                    + " (us-east-1b=0%,us-east-1c=0%); cross-zone aggregation masks it from DNS failover and fail-open");
        });
    }

    @Test
    void aZoneFailingInTwoRoundsIsOneFindingFromTheFirstOnset() {
        Fleet fleet = Fleet.alb().healthy("a=4,b=4", T0).round("a=4,b=4", "a=1", T1).round("a=4,b=4", "a=3", T1 + 10_000);
        assertThat(fleet.judge(detector, T1 + 40_000)).extracting(Finding::windowStart).containsExactly(T1);
    }
}
