package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Severity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * fail_open_routing: healthy < max(count, ⌈percent × registered⌉) of unhealthy_state_routing,
 * judged on the pool with cross-zone on and per zone with it off, once hcwatch has watched the
 * target group for a check interval. The LbConfig comes at T0, one round of checks at T1.
 */
class FailOpenDetectorTest {

    private static final long T1 = T0 + 60_000;
    private static final long NOW = T1 + 5_000;
    private final FailOpenDetector detector = new FailOpenDetector(Fleet.SETTINGS);

    /** "aws default" (no threshold in the LbConfig), "50%", "count 3" or "count 3, 50%". */
    static Thresholds thresholds(String cell) {
        if (cell.equals("aws default")) {
            return null;
        }
        Integer count = null;
        Double percent = null;
        for (String part : cell.split(", ")) {
            if (part.startsWith("count ")) {
                count = Integer.valueOf(part.substring(6));
            } else {
                percent = Double.valueOf(part.replace("%", ""));
            }
        }
        return Thresholds.newBuilder().setMinHealthyCount(count).setMinHealthyPercent(percent).build();
    }

    private static Fleet albWithRouting(boolean crossZone, String routing, long at) {
        return Fleet.alb().apply(Checks.lbConfig(Fleet.TG, at).setCrossZone(crossZone)
                .setUnhealthyStateRouting(thresholds(routing)).build());
    }

    @ParameterizedTest(name = "cross-zone {0}, routing {1}, {2} with {3} failing -> {4}: {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # cross-zone | routing      | targets  | failing | fails open              | why
            true         | aws default  | a=2,b=2  | a=2,b=1 | none                    | 1 healthy meets count 1
            true         | aws default  | a=2,b=2  | a=2,b=2 | pool                    | nothing healthy
            true         | 50%          | a=5,b=5  | a=3,b=2 | none                    | 5 of 10 meet 50%
            true         | 50%          | a=5,b=5  | a=3,b=3 | pool                    | 4 of 10
            true         | 50%          | a=5,b=6  | a=3,b=2 | none                    | 6 of 11 meet ⌈5.5⌉ = 6
            true         | 50%          | a=5,b=6  | a=3,b=3 | pool                    | 5 of 11
            true         | count 3, 50% | a=2,b=2  | a=1     | none                    | 3 healthy meet max(3, 2)
            true         | count 3, 50% | a=2,b=2  | a=1,b=1 | pool                    | 2 healthy, below the count
            true         | 50%          | a=4,b=6  | a=3     | none                    | the pool (7/10) hides zone a's 1/4
            false        | 50%          | a=4,b=6  | a=3     | us-east-1a 1/4          | zone a judged alone
            false        | 50%          | a=4,b=6  | a=2     | none                    | 2 of 4 meet 50%
            false        | 50%          | a=4,b=6  | a=3,b=4 | us-east-1a 1/4,us-east-1b 2/6 | both zones
            false        | aws default  | a=2,b=2  | a=2     | us-east-1a 0/2          | nothing healthy in zone a
            """)
    void failsOpenBelowTheRoutingThresholdOnThePoolOrPerZone(boolean crossZone, String routing, String targets,
                                                             String failing, String failsOpen, String why) {
        Fleet fleet = albWithRouting(crossZone, routing, T0).round(targets, failing, T1);
        var findings = fleet.judge(detector, NOW);
        if (failsOpen.equals("none")) {
            assertThat(findings).as(why).isEmpty();
        } else {
            assertThat(findings).as(why).singleElement().satisfies(f -> assertThat(f.details().get("fail_open_zones"))
                    .isEqualTo(failsOpen.equals("pool") ? null : failsOpen));
        }
    }

    @ParameterizedTest(name = "check interval {0}, judged T0+{1}ms -> fires {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # check interval | judged at | fires | why
            10000            | 9999      | false | not yet watched for a whole check interval: silent targets are unknown, not unhealthy
            10000            | 10000     | true  | watched for one interval
            -                | 29999     | false | registry.default-interval (30s) when no record gives one
            -                | 30000     | true  |
            """)
    void itWaitsUntilItHasWatchedTheTargetGroupForACheckInterval(Integer interval, long judgedAt, boolean fires, String why) {
        LbConfig.Builder config = Checks.lbConfig(Fleet.TG, T0).setUnhealthyStateRouting(thresholds("50%"));
        if (interval != null) {
            config.setHealthCheck(Checks.checkConfig(5000, interval));
        }
        Fleet fleet = Fleet.alb().apply(config.build()).round("a=2,b=2", "a=2,b=1", T0);
        assertThat(fleet.judge(detector, T0 + judgedAt)).as(why).hasSize(fires ? 1 : 0);
    }

    @Test
    void anHaproxyBackendNeverFailsOpen() {
        Fleet fleet = Fleet.haproxy("be-web").round("a=2,b=2", "a=2,b=2", T1);
        assertThat(fleet.judge(detector, NOW + 60_000)).isEmpty();
    }

    @ParameterizedTest(name = "cross-zone {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # cross-zone | summary
            true         | prod-web-tg has 1/4 healthy targets, below the routing threshold (50%): the ALB fails open across the pool and sends traffic to unhealthy targets; 30 of 40 requests in the last 1m reached targets marked unhealthy
            false        | prod-web-tg: zone us-east-1a 0/2 (healthy/registered) below the routing threshold (50%): with cross-zone off the ALB fails open within that zone and sends traffic to unhealthy targets; 30 of 40 requests in the last 1m reached targets marked unhealthy
            """)
    void theSummaryCountsRequestsThatReachedUnhealthyTargetsWithCrossZoneOnAndOff(boolean crossZone, String summary) {
        Fleet fleet = albWithRouting(crossZone, "50%", T0).round("a=2,b=2", "a=2,b=1", T1);
        Map<String, Long> requests = new LinkedHashMap<>();
        for (String target : new String[] {"a-0", "a-1", "b-0", "b-1"}) {
            requests.put(target, 10L);
        }
        fleet.traffic(T1 + 1_000, requests, 0);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertThat(f.summary()).isEqualTo(summary);
            assertThat(f.details()).containsEntry("requests_in_window", "40").containsEntry("requests_to_unhealthy_targets", "30");
        });
    }

    @ParameterizedTest(name = "cross-zone {0}, no access logs")
    @CsvSource(delimiter = '|', textBlock = """
            # cross-zone | summary
            true         | prod-web-tg has 1/4 healthy targets, below the routing threshold (50%): the ALB fails open across the pool and sends traffic to unhealthy targets
            false        | prod-web-tg: zone us-east-1a 0/2 (healthy/registered) below the routing threshold (50%): with cross-zone off the ALB fails open within that zone and sends traffic to unhealthy targets
            """)
    void withoutAccessLogsTheSummaryNamesNoRequests(boolean crossZone, String summary) {
        Fleet fleet = albWithRouting(crossZone, "50%", T0).round("a=2,b=2", "a=2,b=1", T1);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> assertThat(f.summary()).isEqualTo(summary));
    }

    @Test
    void theFindingGivesTheThresholdAndWhereItCameFrom() {
        Fleet fleet = Fleet.alb().round("a=2,b=2", "a=2,b=2", T1);
        assertThat(fleet.judge(detector, T1 + 30_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.FAIL_OPEN_ROUTING, Severity.CRITICAL, "fail_open_routing/prod-web-tg", T1 - 30_000, T1 + 30_000);
            assertThat(f.details()).containsEntry("healthy", "0").containsEntry("registered", "4")
                    .containsEntry("threshold", "count 1").containsEntry("required_healthy", "1").containsEntry("cross_zone", "true")
                    .containsEntry("requests_in_window", "0").containsEntry("requests_to_unhealthy_targets", "0")
                    .containsEntry("config", "assumed AWS defaults (count 1, percentage off, cross-zone on)")
                    .doesNotContainKey("fail_open_zones");
        });
    }
}
