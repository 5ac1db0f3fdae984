package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The diagnosis correlated_failure and zonal_failure carry: one row per kind, each with the
 * signature of its seed incident. Fleets pass their checks at T0 and fail at T1 unless the
 * incident says otherwise; the diagnosis is asked for at NOW.
 */
class FleetDiagnosticianTest {

    private static final long T1 = T0 + 30_000;
    private static final long NOW = T1 + 5_000;
    private static final String NINE = "a=3,b=3,c=3";

    /** A target group checked every 10s with the given timeout. */
    private static Fleet checkedWithTimeout(int timeoutMs) {
        return Fleet.alb().apply(Checks.lbConfig(Fleet.TG, T0).setHealthCheck(Checks.checkConfig(timeoutMs, 10_000)).build());
    }

    /** Nine targets over three zones answer /health in 100ms at T0 and with a 503 in 12ms at T1. */
    private static Fleet everyCheckFailsFastAtT1() {
        return checkedWithTimeout(5000).healthy(NINE, T0).round(NINE, NINE, T1, 100, CheckOutcome.http_status, 12);
    }

    enum Incident {
        /** /health queries a database a security-group change cut off: every check fails fast, the same way, at once. */
        DEEP_CHECK_DATABASE_CUT {
            @Override
            Fleet happen() {
                return everyCheckFailsFastAtT1().requests(T1, 1000, 990);
            }
        },
        /** The same, but the database stops answering: checks that took 100ms all hang until the timeout. */
        DEEP_CHECK_HANGS {
            @Override
            Fleet happen() {
                return checkedWithTimeout(5000).healthy(NINE, T0).round(NINE, NINE, T1, 100, CheckOutcome.timeout, 5000);
            }
        },
        /** As DEEP_CHECK_DATABASE_CUT, but half the requests fail too: not a check deeper than the traffic. */
        ERRORS_IN_THE_TRAFFIC_TOO {
            @Override
            Fleet happen() {
                return everyCheckFailsFastAtT1().requests(T1, 1000, 500);
            }
        },
        /** /health answers in 1.7s against a 2s timeout; the slowest time out. */
        SLOW_ENDPOINT {
            @Override
            Fleet happen() {
                return checkedWithTimeout(2000).round(NINE, "none", T0, 1700, CheckOutcome.pass, 0)
                        .round(NINE, "a=1,b=1,c=1", T1, 1700, CheckOutcome.timeout, 2001);
            }
        },
        /** As SLOW_ENDPOINT, with the first timeouts all in zone a. */
        SLOW_ENDPOINT_ZONE_A_FIRST {
            @Override
            Fleet happen() {
                return checkedWithTimeout(2000).round(NINE, "none", T0, 1700, CheckOutcome.pass, 0)
                        .round(NINE, "a=2", T1, 1700, CheckOutcome.timeout, 2001);
            }
        },
        /** The timeout cut from 5s to 2s at T0+20s; checks that answer take 300ms, a third of them time out. */
        TIMEOUT_CUT {
            @Override
            Fleet happen() {
                return checkedWithTimeout(5000).round(NINE, "none", T0, 300, CheckOutcome.pass, 0)
                        .apply(Checks.lbConfig(Fleet.TG, T0 + 20_000).setHealthCheck(Checks.checkConfig(2000, 10_000)).build())
                        .round(NINE, "a=1,b=1,c=1", T1, 300, CheckOutcome.timeout, 2001);
            }
        },
        /** 100 req/s over ten targets; from T0+60s a target fails every 10s, and each healthy one gets more. */
        OVERLOAD {
            @Override
            Fleet happen() {
                String[] failing = {"a=1", "a=1,b=1", "a=1,b=1,c=1", "a=2,b=1,c=1", "a=2,b=2,c=1", "a=2,b=2,c=1"};
                Fleet fleet = checkedWithTimeout(5000);
                for (int tick = 0; tick <= 11; tick++) {
                    long at = T0 + tick * 10_000L;
                    for (long second = at - 9_000; second <= at; second += 1_000) {
                        fleet.requests(second, 100, 100);
                    }
                    fleet.round("a=4,b=3,c=3", tick < 6 ? "none" : failing[tick - 6], at, 100, CheckOutcome.http_status, 300)
                            .steps(at, at);
                }
                return fleet;
            }
        },
        /** Zone a's four targets time out, and one in zone b. */
        ZONE_A_DOWN {
            @Override
            Fleet happen() {
                return checkedWithTimeout(5000).healthy("a=4,b=4,c=4", T0).round("a=4,b=4,c=4", "a=4,b=1", T1);
            }
        };

        abstract Fleet happen();
    }

    @ParameterizedTest(name = "{0}, as a zonal_failure of {1} -> {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # incident                 | zonal in | judged at | diagnosis                    | reason (contains)
            DEEP_CHECK_DATABASE_CUT    | -        | 35000     | shared_dependency_deep_check | fast, identical failures (Target.ResponseCodeMismatch) across zones at once while 99% of requests still succeed: the check depends on something the traffic does not
            DEEP_CHECK_HANGS           | -        | 35000     | shared_dependency_deep_check | sudden, identical failures (Target.Timeout) across zones at once: the check depends on something the traffic does not
            SLOW_ENDPOINT              | -        | 35000     | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout
            TIMEOUT_CUT                | -        | 35000     | timeout_below_latency        | timeout cut from 5000ms at 2026-03-03T14:30:20Z
            SLOW_ENDPOINT_ZONE_A_FIRST | a        | 35000     | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout (so far concentrated in one zone, but checks fleet-wide are close to the timeout)
            OVERLOAD                   | -        | 110000    | overload_cascade             | failures spread target by target as the healthy count dropped and per-target load or latency rose
            ZONE_A_DOWN                | -        | 35000     | zonal                        | 80% of the failing targets are in us-east-1a: look for what that zone does not share with the others
            ZONE_A_DOWN                | a        | 35000     | zonal                        | 100% of the failing targets are in us-east-1a: look for what that zone does not share with the others
            ERRORS_IN_THE_TRAFFIC_TOO  | -        | 35000     | unknown                      | no known signature matched
            """)
    void eachSeedIncidentIsDiagnosedBySignature(Incident incident, String zone, long judgedAt, String kind, String reason) {
        Diagnosis diagnosis = incident.happen().diagnose(T0 + judgedAt, zone);
        assertThat(diagnosis.kind().id()).isEqualTo(kind);
        assertThat(diagnosis.reason()).contains(reason);
    }

    @Test
    void aTimeoutCutBelowFastChecksIsNotSaidToBeCloseToThem() {
        Diagnosis diagnosis = Incident.TIMEOUT_CUT.happen().diagnose(NOW, null);
        assertThat(diagnosis.kind()).isEqualTo(Diagnosis.Kind.TIMEOUT_BELOW_LATENCY);
        assertThat(diagnosis.reason()).doesNotContain("even passing checks take close to")
                .isEqualTo("checks time out since the timeout cut from 5000ms at 2026-03-03T14:30:20Z to 2000ms");
    }

    @Test
    void theEvidenceOfADeepCheckGivesLatenciesReasonsOnsetAndTraffic() {
        assertThat(Incident.DEEP_CHECK_DATABASE_CUT.happen().diagnose(NOW, null).evidence())
                .containsEntry("failing_check_p50_ms", "12").containsEntry("failing_check_p99_ms", "12")
                .containsEntry("passing_check_p99_ms", "100").containsEntry("timeout_ms", "5000")
                .containsEntry("reasons", "Target.ResponseCodeMismatch=9").containsEntry("onset_spread", "0s")
                .containsEntry("traffic_success_share", "99%").containsEntry("traffic_requests", "1000")
                .containsEntry("requests_per_healthy_target_change", "unknown");
    }

    @Test
    void theEvidenceOfAnOverloadGivesTheLoadPerHealthyTargetAWindowApart() {
        assertThat(Incident.OVERLOAD.happen().diagnose(T0 + 110_000, null).evidence())
                .containsEntry("onset_spread", "40s").containsEntry("requests_per_healthy_target_change", "10.0 -> 20.0 req/s")
                .containsEntry("reasons", "Target.ResponseCodeMismatch=5");
    }
}
