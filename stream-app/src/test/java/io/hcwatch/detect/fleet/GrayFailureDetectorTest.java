package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Severity;
import io.hcwatch.traffic.LatencySketch;
import io.hcwatch.traffic.TrafficCombiner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * gray_failure: every target passes a check at T0 and again at T0+100s; from T1 = T0+60s to
 * T1+59s each serves {@code rate} requests a second answered in 20-79 ms (spread evenly), except
 * the bad ones: a share of their requests answered 5xx ({@code 5xx=0.3}) or slow
 * ({@code slow=0.05x4000}: 5% take 4 s). Judged at NOW = T0+120s, so the 60 s window holds
 * exactly the traffic. Expected values are worked out by hand from those counts.
 */
class GrayFailureDetectorTest {

    private static final long T1 = T0 + 60_000;
    private static final long NOW = T0 + 120_000;
    private final GrayFailureDetector detector = new GrayFailureDetector(Fleet.SETTINGS);

    @ParameterizedTest(name = "{0}: {1} bad by {2} at {3}/s, checks failing {4} -> {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # targets   | bad             | how            | rate | checks failing | gray          | why
            a=3,b=3,c=3 | a-0             | 5xx=0.3        | 3    | -              | a-0           | 30% 5xx against 0%: gray by errors
            a=3,b=3,c=3 | a-0             | slow=0.05x4000 | 3    | -              | a-0           | p99 4s against 79ms: gray by latency
            a=3,b=3,c=3 | a-0             | slow=0.2x150   | 3    | -              | -             | p99 150ms against 79ms is under 3x, and so is its p50
            a=3,b=3,c=3 | a-0             | 5xx=0.3        | 0.5  | -              | -             | 30 requests in the window: fewer than 50, too few to say
            a=3,b=3,c=3 | a-0             | 5xx=0.04       | 3    | -              | -             | 4% 5xx: under the 5% floor however clean the rest
            a=3,b=3,c=3 | a-0             | 5xx=0.3        | 3    | a-0            | -             | its checks fail: another alert's business
            a=3,b=3,c=3 | a-0,a-1,a-2,b-0,b-1,b-2,c-0,c-1,c-2 | 5xx=0.3 | 3 | - | -         | the whole group equally bad: nothing to compare with
            a=3,b=3,c=3 | a-0,a-1,a-2,b-0,b-1,b-2,c-0,c-1,c-2 | slow=0.05x4000 | 3 | - | - | the whole group equally slow
            a=3,b=3,c=3 | a-0,a-1,a-2     | 5xx=0.3        | 3    | -              | zone a        | a whole zone: one alert for the zone, none per target
            a=3,b=3,c=3 | a-0,a-1,a-2     | slow=0.05x4000 | 3    | -              | zone a        | a whole zone slow
            a=3,b=3,c=3 | a-0,a-1         | 5xx=0.3        | 3    | -              | zone a        | two of its three targets: most of the zone
            a=3,b=3,c=3 | a-0             | 5xx=0.9        | 3    | -              | a-0           | one very bad target carries its zone's totals (30%) but not the zone
            a=3,b=3,c=3 | a-0,a-1         | 5xx=0.3        | 3    | a-1            | a-0           | of its zone's two targets passing checks one is bad: judged target by target
            a=3         | a-0             | 5xx=0.3        | 3    | -              | a-0           | one zone: targets only
            """)
    void aTargetOrZoneFarWorseThanTheRestWhileItsChecksPass(String targets, String bad, String how, double rate,
                                                           String failing, String gray, String why) {
        Fleet fleet = Fleet.alb().healthy(targets, T0);
        serve(fleet, targets, Set.of(bad.split(",")), how, rate, 0.0);
        fleet.healthy(targets, T0 + 100_000);
        if (failing != null) {
            for (String t : failing.split(",")) {
                fleet.apply(fleet.check(t.substring(0, 1), t, T0 + 110_000, CheckOutcome.timeout, 2001)
                        .setState(TargetState.healthy).build());
            }
        }
        List<Finding> findings = fleet.judge(detector, NOW);
        List<String> expected = gray == null ? List.of() : List.of(gray.startsWith("zone ") ? "zone " + Fleet.az(gray.substring(5)) : gray);
        assertThat(findings).as(why).extracting(f -> f.scope().target() != null ? f.scope().target() : "zone " + f.scope().zone())
                .containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "rest at {0} 5xx, target at {1} -> gray {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # rest's 5xx | target's 5xx | gray  | why
            0.02         | 0.09         | false | 9% is under 5 x 2%
            0.02         | 0.12         | true  | 12% is over 5 x 2% and over 5%
            0.0          | 0.05         | true  | 5% against nothing
            """)
    void theErrorShareMustBeFiveTimesTheRestsAndFivePercent(double restShare, double share, boolean gray, String why) {
        Fleet fleet = Fleet.alb().healthy("a=3,b=3", T0);
        serve(fleet, "a=3,b=3", Set.of("a-0"), "5xx=" + share, 5, restShare);
        fleet.healthy("a=3,b=3", T0 + 100_000);
        assertThat(fleet.judge(detector, NOW)).as(why).hasSize(gray ? 1 : 0);
    }

    @Test
    void theZoneFindingNamesTheZoneItsEvidenceAndTheRestOfTheGroup() {
        Fleet fleet = Fleet.alb().healthy("a=3,b=3,c=3", T0);
        serve(fleet, "a=3,b=3,c=3", Set.of("a-0", "a-1", "a-2"), "5xx=0.3", 3, 0.0);
        fleet.healthy("a=3,b=3,c=3", T0 + 100_000);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.GRAY_FAILURE, Severity.ERROR, "gray_failure/prod-web-tg/us-east-1a", NOW - 60_000, NOW);
            assertThat(f.holdForMillis()).isEqualTo(20_000);
            assertThat(f.scope().zone()).isEqualTo("us-east-1a");
            assertThat(f.scope().target()).isNull();
            // 3 targets x 3/s x 60 s = 540 requests, 162 of them 5xx; the rest 1080, none
            assertThat(f.details()).containsEntry("reason", "errors").containsEntry("requests", "540")
                    .containsEntry("5xx_share", "30.0%").containsEntry("rest_requests", "1080")
                    .containsEntry("rest_5xx_share", "0.0%").containsEntry("targets_passing_checks", "3")
                    .containsEntry("targets_worse", "3").containsEntry("checks", "passing");
            assertThat(f.summary()).isEqualTo("us-east-1a of prod-web-tg answers 30.0% 5xx (rest of the group 0.0%) over the last 1m"
                    + " while its 3 targets pass their health checks");
        });
    }

    @Test
    void theTargetFindingNamesTheTargetAndItsLatencies() {
        Fleet fleet = Fleet.alb().healthy("a=3,b=3", T0);
        serve(fleet, "a=3,b=3", Set.of("b-1"), "slow=0.05x4000", 3, 0.0);
        fleet.healthy("a=3,b=3", T0 + 100_000);
        assertThat(fleet.judge(detector, NOW)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.GRAY_FAILURE, Severity.WARNING, "gray_failure/prod-web-tg/target/b-1", NOW - 60_000, NOW);
            assertThat(f.scope().target()).isEqualTo("b-1");
            assertThat(f.scope().zone()).isEqualTo("us-east-1b");
            assertThat(f.details()).containsEntry("reason", "latency").containsEntry("address", fleet.ip("b-1") + ":8080")
                    .containsEntry("requests", "180").containsEntry("5xx_share", "0.0%");
            // 9 of its 180 requests took 4 s: its p99 is 4 s (within the sketch's 1 digit); the rest's slowest is 79 ms
            assertThat(Long.parseLong(f.details().get("p99_ms"))).isBetween(3_900L, 4_200L);
            assertThat(Long.parseLong(f.details().get("rest_p99_ms"))).isBetween(76L, 82L);
            assertThat(f.summary()).startsWith("target b-1 (" + fleet.ip("b-1") + ":8080) of prod-web-tg answers p99 ")
                    .endsWith(" over the last 1m while its health checks pass");
        });
    }

    @ParameterizedTest(name = "registered {0}s before NOW, by {1} -> gray {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # registered before NOW (s) | how            | gray  | why
            120                         | slow=0.05x4000 | false | warming up: a new instance is slow by design (rolling deploys)
            120                         | 5xx=0.3        | true  | warming up excuses latency, not errors
            400                         | slow=0.05x4000 | true  | warm for more than 5 minutes
            """)
    void aTargetWarmingUpIsNotJudgedByLatency(long registeredAgo, String how, boolean gray, String why) {
        Fleet fleet = Fleet.alb();
        for (long at : new long[] {T0, T0 + 100_000}) {
            fleet.healthy("a=3,b=3", at);
            fleet.apply(fleet.check("a", "a-0", at, CheckOutcome.pass, 100).setState(TargetState.healthy)
                    .setRegisteredAt(Instant.ofEpochMilli(NOW - registeredAgo * 1000)).build());
        }
        serve(fleet, "a=3,b=3", Set.of("a-0"), how, 3, 0.0);
        assertThat(fleet.judge(detector, NOW)).as(why).hasSize(gray ? 1 : 0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # server web2's state | gray  | why
            none                  | true  | never logged DOWN: HAProxy logs checks only when a server's state changes, so it is UP
            UP                    | true  | UP
            DOWN                  | false | DOWN: no_healthy_targets and correlated_failure speak of it
            """)
    void anHaproxyServerAnsweringWorseThanTheRestOfItsBackend(String state, boolean gray, String why) {
        Fleet fleet = Fleet.haproxy("be-web");
        if (!state.equals("none")) {
            fleet.apply(fleet.check("?", "web2", T0, state.equals("UP") ? CheckOutcome.pass : CheckOutcome.connect_error, 1)
                    .setState(state.equals("UP") ? TargetState.healthy : TargetState.unhealthy).build());
        }
        for (long at = T1; at < T1 + 60_000; at += 1000) {
            Map<String, TargetCount> byServer = new LinkedHashMap<>();
            for (int k = 1; k <= 3; k++) {
                int second = (int) ((at - T1) / 1000);
                boolean bad = k == 2;
                byServer.put("web" + k, count(second, 3, bad ? 0.3 : 0.0, bad ? "5xx=0.3" : "-"));
            }
            fleet.apply(summary("be-web", at, byServer, TrafficCombiner.HAPROXY_BACKEND));
        }
        List<Finding> findings = fleet.judge(detector, NOW);
        assertThat(findings).as(why).extracting(f -> f.scope().target()).containsExactlyElementsOf(gray ? List.of("web2") : List.of());
    }

    @Test
    void targetsThatServedNothingInTheWindowAreForgottenAtTheStep() {
        Fleet fleet = Fleet.alb().healthy("a=3,b=3", T0);
        serve(fleet, "a=3,b=3", Set.of("a-0"), "5xx=0.3", 3, 0.0);
        // the last request came at T1+59s = NOW-1s: in the window up to NOW+50s, out of it at NOW+60s
        fleet.steps(NOW, NOW + 50_000);
        assertThat(fleet.state.served.byTarget).hasSize(6);
        fleet.steps(NOW + 60_000, NOW + 60_000);
        assertThat(fleet.state.served.byTarget).isEmpty();
        assertThat(fleet.judge(detector, NOW + 60_000)).isEmpty();
    }

    // ---- traffic -------------------------------------------------------------------------------

    /** One summary per second from T1 to T1+59s: every target of the layout at {@code rate}/s. */
    private static void serve(Fleet fleet, String layout, Set<String> bad, String how, double rate, double restShare) {
        List<String> targets = new ArrayList<>();
        Fleet.counts(layout).forEach((zone, n) -> {
            for (int k = 0; k < n; k++) {
                targets.add(zone + "-" + k);
            }
        });
        for (long at = T1; at < T1 + 60_000; at += 1000) {
            int second = (int) ((at - T1) / 1000);
            Map<String, TargetCount> byTarget = new LinkedHashMap<>();
            for (String t : targets) {
                boolean isBad = bad.contains(t);
                double share = isBad && how.startsWith("5xx=") ? Double.parseDouble(how.substring(4)) : restShare;
                byTarget.put(fleet.ip(t) + ":8080", count(second, rate, share, isBad ? how : "-"));
            }
            fleet.apply(summary(Fleet.TG, at, byTarget, null));
        }
    }

    /**
     * Second {@code second}'s count of one target: {@code rate} requests a second (the running total
     * rounded down), 5xx and slow ones likewise spread evenly, the others answered in 20-79 ms.
     */
    private static TargetCount count(int second, double rate, double failShare, String how) {
        long requests = (long) Math.floor((second + 1) * rate) - (long) Math.floor(second * rate);
        long before = (long) Math.floor(second * rate);
        long failed = (long) Math.floor((before + requests) * failShare + 1e-9) - (long) Math.floor(before * failShare + 1e-9);
        double slowShare = 0;
        long slowMs = 0;
        if (how.startsWith("slow=")) {
            String[] p = how.substring(5).split("x");
            slowShare = Double.parseDouble(p[0]);
            slowMs = Long.parseLong(p[1]);
        }
        Histogram h = LatencySketch.create();
        double sum = 0;
        for (long i = before; i < before + requests; i++) {
            boolean isFailed = Math.floor((i + 1) * failShare + 1e-9) > Math.floor(i * failShare + 1e-9);
            if (isFailed) {
                continue;
            }
            boolean slow = Math.floor((i + 1) * slowShare + 1e-9) > Math.floor(i * slowShare + 1e-9);
            long ms = slow ? slowMs : 20 + (i * 37) % 60;
            LatencySketch.record(h, ms);
            sum += ms;
        }
        return new TargetCount(requests, requests - failed, sum, LatencySketch.encode(h));
    }

    private static TargetTraffic summary(String group, long at, Map<String, TargetCount> byTarget, String source) {
        long requests = byTarget.values().stream().mapToLong(TargetCount::getRequests).sum();
        long succeeded = byTarget.values().stream().mapToLong(TargetCount::getSucceeded).sum();
        return new TargetTraffic(group, source == null ? Checks.LB : null, at, requests, succeeded, requests - succeeded, 0L,
                byTarget, source);
    }
}
