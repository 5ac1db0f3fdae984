package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Severity;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * dns_failover: with cross-zone off a zone below the DNS threshold leaves DNS (none does when
 * every zone is below it); with it on the pool is judged, and a zone with nothing healthy that
 * cross-zone keeps in DNS warns too. The LbConfig comes at T0, one round of checks at T1.
 */
class DnsFailoverDetectorTest {

    private static final long T1 = T0 + 60_000;
    private static final long NOW = T1 + 5_000;
    private final DnsFailoverDetector detector = new DnsFailoverDetector(Fleet.SETTINGS);

    private static Fleet albWithDns(boolean crossZone, String dns) {
        return Fleet.alb().apply(Checks.lbConfig(Fleet.TG, T0).setCrossZone(crossZone)
                .setDnsFailover(FailOpenDetectorTest.thresholds(dns)).build());
    }

    /** Each finding as "zone healthy/registered" ("pool" for the pool). */
    private static List<String> described(List<Finding> findings) {
        return findings.stream().map(f -> (f.scope().zone() == null ? "pool" : f.scope().zone().replace("us-east-1", ""))
                + " " + f.details().get("healthy") + "/" + f.details().get("registered")).toList();
    }

    @ParameterizedTest(name = "cross-zone {0}, DNS threshold {1}, {2} with {3} failing -> {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # cross-zone | dns threshold | targets    | failing  | findings   | action                                             | why
            true         | 50%           | a=5,b=5    | a=3,b=2  | none       | -                                                  | the pool (5/10) meets 50%
            true         | 50%           | a=5,b=5    | a=3,b=3  | pool 4/10  | so every zone is unhealthy in DNS and ALB keeps answering with all of them | the pool is below
            true         | aws default   | a=3,b=3    | a=2      | none       | -                                                  | zone a still has a healthy target
            true         | aws default   | a=3,b=3    | a=3      | a 0/3      | but cross-zone aggregation (pool 3/6 healthy) keeps it in DNS | a dead zone the pool masks
            true         | aws default   | a=3,?=3    | ?=3      | none       | -                                                  | targets without a zone are no DNS zone
            false        | 50%           | a=4,b=4    | a=2      | none       | -                                                  | 2/4 meet 50%
            false        | 50%           | a=4,b=4    | a=3      | a 1/4      | cross-zone off: zone us-east-1a is below the DNS failover threshold and is removed from DNS | zone a alone
            false        | 50%           | a=4,b=4    | a=3,b=3  | a 1/4,b 1/4 | every zone is below the DNS failover threshold, so ALB keeps all zones in DNS | no zone left to fail over to
            false        | aws default   | a=2,b=2    | a=2      | a 0/2      | is removed from DNS                                | count 1
            """)
    void followsAlbsTargetGroupHealthRules(boolean crossZone, String dns, String targets, String failing, String findings,
                                          String action, String why) {
        Fleet fleet = albWithDns(crossZone, dns).round(targets, failing, T1);
        List<Finding> found = fleet.judge(detector, NOW);
        assertThat(described(found)).as(why).containsExactlyElementsOf(
                findings.equals("none") ? List.of() : List.of(findings.split(",")));
        assertThat(found).as(why).allSatisfy(f -> assertThat(f.details().get("action")).contains(action));
    }

    /**
     * A zone whose healthy count flaps between 0 and 1 while its targets fail and come back (or are
     * replaced by targets that pass a few checks and fail again) is one finding while it flaps: a
     * target passing again for less than the window (60 s) after failures in its zone does not hold
     * the zone up. Cross-zone on, AWS defaults; a=2,b=2,c=2 pass at T0, both of a time out at T1,
     * then each event is a check of one target at T1 plus its offset.
     */
    @ParameterizedTest(name = "[{index}] {0} judged at T1+{1}ms -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # checks after the failure at T1                   | judged at | findings | why
            -                                                   | 5000      | a 0/2    | zone a has nothing healthy
            a-0 pass@20000                                      | 25000     | a 0/2    | a-0 passes again 20 s after a failed: recovering, the zone stays down
            a-0 pass@20000; a-0 fail@40000; a-0 pass@50000      | 55000     | a 0/2    | flapping 0-1-0-1: still the same finding
            a-0 pass@20000; a-1 fail@30000; a-1 fail@60000      | 79999     | a 0/2    | a-0 passing for less than 60 s while a-1 still fails
            a-0 pass@20000; a-1 fail@30000; a-1 fail@60000      | 80000     | none     | a-0 has passed for 60 s: it holds the zone up though a-1 still fails
            a-0 pass@20000; a-1 pass@20000                      | 59999     | a 0/2    | both passing again, the zone's failures still within 60 s
            a-0 pass@20000; a-1 pass@20000                      | 60000     | none     | the zone's last failure left the window
            """)
    void aZoneFlappingBetweenNoneAndOneHealthyTargetIsOneFinding(String checks, long judgedAt, String findings, String why) {
        Fleet fleet = Fleet.alb().healthy("a=2,b=2,c=2", T0).round("a=2,b=2,c=2", "a=2", T1);
        if (!checks.equals("-")) {
            for (String event : checks.split(";")) {
                String[] whoWhat = event.trim().split("[ @]");
                boolean fails = whoWhat[1].equals("fail");
                fleet.apply(fleet.check("a", whoWhat[0], T1 + Long.parseLong(whoWhat[2]),
                                fails ? io.hcwatch.avro.v1.CheckOutcome.timeout : io.hcwatch.avro.v1.CheckOutcome.pass, fails ? 2001 : 100)
                        .setState(fails ? io.hcwatch.avro.v1.TargetState.unhealthy : io.hcwatch.avro.v1.TargetState.healthy).build());
            }
        }
        // the other zones keep passing
        for (long at = T1 + 10_000; at <= T1 + judgedAt; at += 10_000) {
            fleet.healthy("b=2,c=2", at);
        }
        assertThat(described(fleet.judge(detector, T1 + judgedAt))).as(why)
                .containsExactlyElementsOf(findings.equals("none") ? List.of() : List.of(findings));
    }

    @ParameterizedTest(name = "judged T1+{0}ms after the first record -> fires {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # judged at | fires | why
            29999       | false | not yet watched for a check interval (30s by default)
            30000       | true  |
            """)
    void itWaitsUntilItHasWatchedTheTargetGroupForACheckInterval(long judgedAt, boolean fires, String why) {
        Fleet fleet = Fleet.alb().round("a=2,b=2", "a=2", T1);
        assertThat(fleet.judge(detector, T1 + judgedAt)).as(why).hasSize(fires ? 1 : 0);
    }

    @Test
    void anHaproxyBackendHasNoDnsFailover() {
        Fleet fleet = Fleet.haproxy("be-web").round("a=2,b=2", "a=2,b=2", T1);
        assertThat(fleet.judge(detector, T1 + 60_000)).isEmpty();
    }

    @Test
    void theFindingIsPerZoneWithTheThresholdAndItsSource() {
        Fleet fleet = albWithDns(false, "50%").round("a=4,b=4", "a=3", T1);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.DNS_FAILOVER, Severity.WARNING, "dns_failover/prod-web-tg/us-east-1a", NOW, NOW);
            assertThat(f.scope().zone()).isEqualTo("us-east-1a");
            assertThat(f.details()).containsEntry("threshold", "50%").containsEntry("cross_zone", "false")
                    .containsEntry("config", "LbConfig");
            assertThat(f.summary()).isEqualTo("prod-web-tg: zone us-east-1a has 1/4 healthy targets (DNS failover threshold 50%);"
                    + " cross-zone off: zone us-east-1a is below the DNS failover threshold and is removed from DNS");
        });
    }
}
