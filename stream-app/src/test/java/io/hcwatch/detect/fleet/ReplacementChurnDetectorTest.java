package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Severity;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * replacement_churn: ≥ 3 targets registered in the last 10 min marked unhealthy before ever
 * being healthy, critical. The fleet a=2,b=2 is watched from T0; replacements register at T1
 * and later, fail their initial checks every 10s and are marked unhealthy 20s after registering.
 */
class ReplacementChurnDetectorTest {

    private static final long T1 = T0 + 300_000;
    private final ReplacementChurnDetector detector = new ReplacementChurnDetector(Fleet.SETTINGS);

    /** {@code target} registers at {@code killed - 20s}, fails its initial checks and is marked unhealthy at {@code killed}. */
    private static Fleet killedWarmingUp(Fleet fleet, String target, long killed) {
        long registered = killed - 20_000;
        for (long at = registered; at < killed; at += 10_000) {
            fleet.apply(fleet.check("a", target, at, CheckOutcome.timeout, 2001).setState(TargetState.initial)
                    .setReason("Elb.InitialHealthChecking").setRegisteredAt(Instant.ofEpochMilli(registered)).build());
        }
        return fleet.apply(fleet.check("a", target, killed, CheckOutcome.timeout, 2001).setState(TargetState.unhealthy)
                .setRegisteredAt(Instant.ofEpochMilli(registered)).build());
    }

    @ParameterizedTest(name = "killed at T1+{0}ms, judged at T1+{1}ms -> fires {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # killed at            | judged at | fires | why
            0 60000                | 120000    | false | two replacements killed
            0 60000 120000         | 120000    | true  | three within 10 min
            0 60000 120000         | 599999    | true  | the first still inside the 10 min
            0 60000 120000         | 600000    | false | the first has left the window
            0 60000 120000         | 119999    | false | the third is not killed yet at the time judged
            0 60000 120000 180000  | 600000    | true  | three again once the first has left
            """)
    void firesOnThreeReplacementsKilledWithinTenMinutes(String killedAt, long judgedAt, boolean fires, String why) {
        Fleet fleet = Fleet.alb().healthy("a=2,b=2", T0);
        long[] kills = Arrays.stream(killedAt.split(" ")).mapToLong(Long::parseLong).toArray();
        for (int i = 0; i < kills.length; i++) {
            killedWarmingUp(fleet, "r-" + i, T1 + kills[i]);
        }
        assertThat(fleet.judge(detector, T1 + judgedAt)).as(why).hasSize(fires ? 1 : 0)
                .allSatisfy(f -> assertThat(f.details()).containsEntry("killed_before_healthy", "3"));
    }

    @ParameterizedTest(name = "registered {0}ms before, first seen {1} at T0+{2}ms, healthy once {3} -> counts {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # registered before kill | first state | first seen at | healthy once | counts | why
            20000                    | initial     | 400000        | false        | true   | a replacement killed warming up
            20000                    | initial     | 400000        | true         | false  | it was healthy once: not churn
            599999                   | initial     | 400000        | false        | true   | registered just under 10 min before
            600000                   | initial     | 400000        | false        | false  | registered 10 min before: no longer new
            -                        | initial     | 400000        | false        | true   | first seen in state initial: it registered
            -                        | unhealthy   | 400000        | false        | true   | first seen long after hcwatch began watching
            -                        | unhealthy   | 30000         | false        | false  | there when hcwatch began: not known to be new
            """)
    void onlyTargetsKnownToBeNewAndNeverHealthyCount(Long registeredBefore, TargetState firstState, long firstSeen,
                                                     boolean healthyOnce, boolean counts, String why) {
        long killed = T0 + 420_000;
        Fleet fleet = Fleet.alb().healthy("a=2,b=2", T0);
        killedWarmingUp(fleet, "r-0", T1);
        killedWarmingUp(fleet, "r-1", T1 + 60_000);
        Instant registered = registeredBefore == null ? null : Instant.ofEpochMilli(killed - registeredBefore);
        fleet.apply(fleet.check("b", "r-2", T0 + firstSeen, CheckOutcome.timeout, 2001).setState(firstState)
                .setRegisteredAt(registered).build());
        if (healthyOnce) {
            fleet.apply(fleet.check("b", "r-2", T0 + firstSeen + 5_000, CheckOutcome.pass, 100).setState(TargetState.healthy)
                    .setRegisteredAt(registered).build());
        }
        fleet.apply(fleet.check("b", "r-2", killed, CheckOutcome.timeout, 2001).setState(TargetState.unhealthy)
                .setRegisteredAt(registered).build());
        assertThat(fleet.judge(detector, killed)).as(why).hasSize(counts ? 1 : 0);
    }

    @Test
    void theFindingGivesTheFirstChecksAndAGracePeriodFromAReplacementThatDidWarmUp() {
        Fleet fleet = Fleet.alb().healthy("a=2,b=2", T0);
        killedWarmingUp(fleet, "r-0", T1);
        killedWarmingUp(fleet, "r-1", T1 + 60_000);
        killedWarmingUp(fleet, "r-2", T1 + 120_000);
        // w-0 registered at T1 and became healthy 40s later
        fleet.apply(fleet.check("b", "w-0", T1, CheckOutcome.timeout, 2001).setState(TargetState.initial)
                .setRegisteredAt(Instant.ofEpochMilli(T1)).build());
        fleet.apply(fleet.check("b", "w-0", T1 + 40_000, CheckOutcome.pass, 90).setState(TargetState.healthy).build());
        assertThat(fleet.judge(detector, T1 + 130_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.REPLACEMENT_CHURN, Severity.CRITICAL, "replacement_churn/prod-web-tg",
                    T1 - 20_000, T1 + 130_000);
            assertThat(f.details()).containsEntry("killed_before_healthy", "3").containsEntry("targets", "r-0,r-1,r-2")
                    .containsEntry("first_check_latencies_ms", "2001,2001,2001").containsEntry("mean_time_to_unhealthy", "20s")
                    .containsEntry("checks_allowed_before_unhealthy", "1m").containsEntry("observed_warmup", "40s")
                    .containsEntry("grace_period", "replacements that did become healthy needed 40s; an autoscaling health"
                            + " check grace period of at least 1m keeps them from being replaced while they warm up");
            assertThat(f.summary()).isEqualTo("3 new targets of prod-web-tg were marked unhealthy before ever being healthy"
                    + " within 10m (first checks 2001,2001,2001 ms)");
        });
    }
}
