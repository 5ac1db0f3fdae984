package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static io.hcwatch.detect.fleet.Checks.check;
import static io.hcwatch.detect.fleet.Checks.pass;
import static io.hcwatch.detect.fleet.Checks.timeout;
import static io.hcwatch.detect.fleet.Checks.zone;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetMonitoringTest {

    private static final String TG = "prod-web-tg";
    // resolves follow the clear steps alone here; the cool-down is the lifecycle's (AlertBookTest)
    private final FleetHarness monitor = new FleetHarness(Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s")));
    private final Monitored<FleetState> state = monitor.newState(TG);
    private final List<Notification> sent = new ArrayList<>();

    private void feed(HealthCheckResult r) {
        sent.addAll(monitor.onCheck(state, r));
    }

    /** 18 targets over 3 zones, all passing every 10s from T0 for {@code seconds}. */
    private void healthyFleet(int targets, int zones, long from, long seconds) {
        for (long t = from; t < from + seconds * 1000; t += 10_000) {
            for (int i = 0; i < targets; i++) {
                feed(pass(TG, "i-" + i, zone(i, zones), t + i * 100L, 120));
            }
        }
    }

    private List<Notification> of(AlertType type) {
        return sent.stream().filter(n -> n.type() == type).toList();
    }

    @Test
    void firesOnceWhenThirtyPercentFailWithinAMinuteAndResolvesAfterTwoClearSteps() {
        healthyFleet(18, 3, T0, 120);
        long t = T0 + 120_000;
        // targets 0..5 span all three zones and fail from t on, checked every 10s
        for (long s = t; s < t + 40_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                feed(i < 6 ? timeout(TG, "i-" + i, zone(i, 3), s + i * 100L) : pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 150));
            }
        }
        List<Notification> correlated = of(AlertType.CORRELATED_FAILURE);
        assertThat(correlated).hasSize(1);
        Notification fired = correlated.get(0);
        assertThat(fired.firing()).isTrue();
        assertThat(fired.severity()).isEqualTo(Severity.WARNING);
        assertThat(fired.details()).containsEntry("failing", "6").containsEntry("registered", "18")
                .containsEntry("zones", "us-east-1a,us-east-1b,us-east-1c").containsEntry("reason", "Target.Timeout");
        assertThat(fired.dedupKey()).isEqualTo("correlated_failure/prod-web-tg");

        // recovery: all pass again; the alert resolves only after two clear steps
        long r = t + 40_000;
        for (long s = r; s < r + 120_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                feed(pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 150));
            }
        }
        correlated = of(AlertType.CORRELATED_FAILURE);
        assertThat(correlated).hasSize(2);
        Notification resolved = correlated.get(1);
        assertThat(resolved.firing()).isFalse();
        assertThat(resolved.alertId()).isEqualTo(fired.alertId());
    }

    @Test
    void checksJudgedInBatchesOfOneSecondRaiseTheAlertsTheyRaiseOneByOne() {
        List<HealthCheckResult> checks = new ArrayList<>();
        for (long s = T0; s < T0 + 300_000; s += 10_000) {
            boolean incident = s >= T0 + 120_000 && s < T0 + 160_000;
            boolean half = s >= T0 + 140_000 && s < T0 + 160_000;
            for (int i = 0; i < 18; i++) {
                // the whole fleet is checked within the same second, so a batch holds one round of checks
                long ts = s + i * 50L;
                boolean fails = incident && (i < 6 || half && i < 9);
                checks.add(fails ? timeout(TG, "i-" + i, zone(i, 3), ts) : pass(TG, "i-" + i, zone(i, 3), ts, 150));
            }
        }
        Monitored<FleetState> oneByOne = monitor.newState(TG);
        List<Notification> single = new ArrayList<>();
        checks.forEach(c -> single.addAll(monitor.onCheck(oneByOne, c)));
        Monitored<FleetState> batched = monitor.newState(TG);
        List<Notification> batches = new ArrayList<>();
        java.util.Map<Long, List<HealthCheckResult>> bySecond = new java.util.TreeMap<>();
        checks.forEach(c -> bySecond.computeIfAbsent(c.getTs().toEpochMilli() / 1000, k -> new ArrayList<>()).add(c));
        bySecond.values().forEach(b -> batches.addAll(monitor.onChecks(batched, b)));

        assertThat(single).extracting(Notification::type).contains(AlertType.CORRELATED_FAILURE);
        assertThat(batches).extracting(Notification::dedupKey, Notification::severity, Notification::firing)
                .containsExactlyElementsOf(single.stream()
                        .map(n -> org.assertj.core.groups.Tuple.tuple(n.dedupKey(), n.severity(), n.firing())).toList());
        for (int i = 0; i < single.size(); i++) {
            assertThat(batches.get(i).eventTime() - single.get(i).eventTime()).as(single.get(i).summary()).isBetween(0L, 999L);
        }
    }

    @Test
    void escalatesToCriticalWhenHalfTheFleetFails() {
        healthyFleet(18, 3, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 30_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                int failingNow = s == t ? 6 : 10;
                feed(i < failingNow ? timeout(TG, "i-" + i, zone(i, 3), s + i * 100L) : pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 150));
            }
        }
        List<Notification> correlated = of(AlertType.CORRELATED_FAILURE);
        assertThat(correlated).extracting(Notification::severity).containsExactly(Severity.WARNING, Severity.CRITICAL);
        assertThat(correlated).extracting(Notification::alertId).containsOnly(correlated.get(0).alertId());
    }

    @Test
    void aLoneFailingTargetNeverFires() {
        healthyFleet(6, 2, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 300_000; s += 10_000) {
            for (int i = 0; i < 6; i++) {
                feed(i == 0 ? timeout(TG, "i-0", zone(0, 2), s) : pass(TG, "i-" + i, zone(i, 2), s + i * 100L, 100));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isEmpty();
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
    }

    @Test
    void aRollingDeployThatReplacesAThirdOfTheFleetDoesNotFire() {
        healthyFleet(12, 3, T0, 60);
        long t = T0 + 60_000;
        // old targets 0..3 drain; replacements n-0..n-3 register and fail their first checks while starting
        for (int i = 0; i < 4; i++) {
            feed(check(TG, "i-" + i, zone(i, 3), t, CheckOutcome.pass, 100).setState(TargetState.draining).build());
        }
        for (long s = t; s < t + 90_000; s += 10_000) {
            for (int i = 0; i < 4; i++) {
                boolean warm = s >= t + 40_000;
                feed(check(TG, "n-" + i, zone(i, 3), s + i, warm ? CheckOutcome.pass : CheckOutcome.http_status, 50)
                        .setState(warm ? TargetState.healthy : TargetState.initial)
                        .setReason(warm ? null : "Elb.InitialHealthChecking")
                        .setRegisteredAt(java.time.Instant.ofEpochMilli(t)).build());
            }
            for (int i = 4; i < 12; i++) {
                feed(pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 100));
            }
        }
        assertThat(sent).isEmpty();
    }

    @Test
    void outOfOrderChecksWithinGraceStillCount() {
        healthyFleet(9, 3, T0, 60);
        long t = T0 + 60_000;
        // the failures of targets 0..2 arrive after checks 20s later from the rest of the fleet
        for (int i = 3; i < 9; i++) {
            feed(pass(TG, "i-" + i, zone(i, 3), t + 20_000, 100));
        }
        for (int i = 0; i < 3; i++) {
            feed(timeout(TG, "i-" + i, zone(i, 3), t + i * 1000L));
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).hasSize(1);
    }

    @Test
    void awsWorkedExampleWithCrossZoneOffFailsOverZoneBAndFailsOpenWithinIt() {
        runAwsExample(false);
        assertThat(of(AlertType.DNS_FAILOVER)).singleElement().satisfies(n -> {
            assertThat(n.scope().zone()).isEqualTo("zone-b");
            assertThat(n.details()).containsEntry("healthy", "4").containsEntry("registered", "10");
            assertThat(n.details().get("action")).contains("removed from DNS");
        });
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).singleElement()
                .satisfies(n -> assertThat(n.details()).containsEntry("fail_open_zones", "zone-b 4/10"));
        assertThat(of(AlertType.ZONAL_FAILURE)).singleElement()
                .satisfies(n -> assertThat(n.details()).containsEntry("masked", "false").containsEntry("cross_zone", "false"));
    }

    @Test
    void awsWorkedExampleWithCrossZoneOnTakesNoActionAndWarnsTheDeadCapacityIsMasked() {
        runAwsExample(true);
        assertThat(of(AlertType.DNS_FAILOVER)).isEmpty();
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).isEmpty();
        assertThat(of(AlertType.ZONAL_FAILURE)).singleElement().satisfies(n ->
                assertThat(n.details()).containsEntry("masked", "true").containsEntry("cross_zone", "true"));
        // once all six have failed, hcwatch's view is AWS's: 14/20 = 70% healthy, above 50%, no action
        assertThat(monitor.findings(state, state.time.clock)).filteredOn(f -> f.type() == AlertType.ZONAL_FAILURE)
                .singleElement().satisfies(f -> assertThat(f.details().get("dns_and_fail_open")).contains("14/20 healthy"));
    }

    /** AWS's example: zones A and B with 10 targets each, DNS and routing thresholds 50%, 6 targets fail in B. */
    private void runAwsExample(boolean crossZone) {
        sent.addAll(monitor.onConfig(state, Checks.targetGroupConfig(TG, crossZone, 50.0, 50.0, T0)));
        for (long s = T0; s < T0 + 90_000; s += 10_000) {
            for (int i = 0; i < 20; i++) {
                String z = i < 10 ? "zone-a" : "zone-b";
                boolean fails = i >= 14 && s >= T0 + 30_000;
                feed(fails ? timeout(TG, "t-" + i, z, s + i) : pass(TG, "t-" + i, z, s + i, 80));
            }
        }
    }

    @Test
    void theFirstFailuresOfAFleetWideOutageLandingInOneZoneAreNotCalledZonal() {
        healthyFleet(12, 3, T0, 60);
        long t = T0 + 60_000;
        // every target fails from t on, but zone a's targets are checked first
        for (int i = 0; i < 12; i += 3) {
            feed(timeout(TG, "i-" + i, zone(i, 3), t + i));
        }
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
        for (int i = 0; i < 12; i++) {
            if (i % 3 != 0) {
                feed(timeout(TG, "i-" + i, zone(i, 3), t + 1_000 + i));
            }
        }
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
        assertThat(of(AlertType.CORRELATED_FAILURE)).isNotEmpty();
    }

    @Test
    void aZoneThatIsLastToRecoverFromAFleetWideOutageIsNotCalledZonal() {
        healthyFleet(12, 3, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 60_000; s += 10_000) {
            for (int i = 0; i < 12; i++) {
                feed(i % 2 == 0 ? timeout(TG, "i-" + i, zone(i, 3), s + i) : pass(TG, "i-" + i, zone(i, 3), s + i, 100));
            }
        }
        // zones a and c recover at t+60s; zone b's failing targets keep failing for 20s more
        for (long s = t + 60_000; s < t + 180_000; s += 10_000) {
            for (int i = 0; i < 12; i++) {
                boolean stillFailing = i % 2 == 0 && zone(i, 3).equals("us-east-1b") && s < t + 80_000;
                feed(stillFailing ? timeout(TG, "i-" + i, zone(i, 3), s + i) : pass(TG, "i-" + i, zone(i, 3), s + i, 100));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isNotEmpty();
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
    }

    @Test
    void latencyHeadroomWarnsAtHalfTheTimeoutAndReportsTheRecommendedTimeout() {
        sent.addAll(monitor.onConfig(state, io.hcwatch.avro.v1.LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, null, null, T0))
                .setHealthCheck(Checks.checkConfig(2000, 10_000)).build()));
        for (long s = T0; s < T0 + 60_000; s += 1_000) {
            for (int i = 0; i < 3; i++) {
                feed(pass(TG, "i-" + i, zone(i, 3), s + i, 1100 + i * 50));
            }
        }
        assertThat(of(AlertType.HEALTH_LATENCY_HEADROOM)).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.WARNING);
            long p99 = Long.parseLong(n.details().get("p99_ms"));
            assertThat(p99).isBetween(1190L, 1220L);
            long recommended = Long.parseLong(n.details().get("recommended_timeout_ms"));
            assertThat(recommended).isBetween(10 * p99, 10 * p99 + 999).isEqualTo(recommended / 1000 * 1000);
            assertThat(n.details()).containsEntry("timeout_ms", "2000");
        });
    }

    @Test
    void configCutBelowTheLoadedP99FiresCriticalAtTheChangeBeforeAnyFailure() {
        for (long s = T0; s < T0 + 300_000; s += 2_000) {
            for (int i = 0; i < 4; i++) {
                feed(check(TG, "i-" + i, zone(i, 2), s + i, CheckOutcome.pass, 1800 + (int) (s / 1000 % 7) * 100)
                        .setState(TargetState.healthy).setCheck(Checks.checkConfig(5000, 10_000)).build());
            }
        }
        assertThat(sent).isEmpty();
        long change = T0 + 300_000;
        feed(check(TG, "i-0", zone(0, 2), change, CheckOutcome.pass, 1900).setState(TargetState.healthy)
                .setCheck(Checks.checkConfig(2000, 10_000)).build());
        assertThat(of(AlertType.CORRELATED_FAILURE)).isEmpty();
        assertThat(of(AlertType.HEALTH_CHECK_CONFIG_RISK)).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(n.eventTime()).isEqualTo(change);
            assertThat(n.summary()).contains("timeout 5000ms -> 2000ms");
            assertThat(n.details()).containsEntry("old_timeout_ms", "5000").containsEntry("new_timeout_ms", "2000");
        });
    }

    @Test
    void raisingTheTimeoutOrKeepingAmpleHeadroomRaisesNoConfigRisk() {
        for (long s = T0; s < T0 + 120_000; s += 2_000) {
            for (int i = 0; i < 4; i++) {
                feed(check(TG, "i-" + i, zone(i, 2), s + i, CheckOutcome.pass, 150)
                        .setState(TargetState.healthy).setCheck(Checks.checkConfig(5000, 10_000)).build());
            }
        }
        feed(check(TG, "i-0", zone(0, 2), T0 + 120_000, CheckOutcome.pass, 150).setState(TargetState.healthy)
                .setCheck(Checks.checkConfig(3000, 10_000)).build());
        feed(check(TG, "i-0", zone(0, 2), T0 + 130_000, CheckOutcome.pass, 150).setState(TargetState.healthy)
                .setCheck(Checks.checkConfig(8000, 10_000)).build());
        assertThat(of(AlertType.HEALTH_CHECK_CONFIG_RISK)).isEmpty();
    }

    @Test
    void replacementsKilledBeforeWarmUpFireReplacementChurn() {
        healthyFleet(6, 2, T0, 60);
        long t = T0 + 60_000;
        for (int r = 0; r < 3; r++) {
            long joined = t + r * 60_000;
            for (int c = 0; c < 3; c++) {
                feed(check(TG, "new-" + r, zone(r, 2), joined + c * 10_000, CheckOutcome.timeout, 2000 + c)
                        .setState(c < 2 ? TargetState.initial : TargetState.unhealthy).setReason("Target.Timeout")
                        .setRegisteredAt(java.time.Instant.ofEpochMilli(joined)).build());
            }
        }
        assertThat(of(AlertType.REPLACEMENT_CHURN)).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(n.details()).containsEntry("killed_before_healthy", "3")
                    .containsEntry("first_check_latencies_ms", "2000,2000,2000");
        });
        assertThat(of(AlertType.CORRELATED_FAILURE)).isEmpty();
    }

    @Test
    void haproxyBackendWithNoServerFiresUntilAServerComesBack() {
        Monitored<FleetState> be = monitor.newState("be_app");
        sent.addAll(monitor.onBackendEvent(be, Checks.noServerAvailable("be_app", T0)));
        assertThat(of(AlertType.NO_HEALTHY_TARGETS)).singleElement().satisfies(n -> assertThat(n.firing()).isTrue());
        HealthCheckResult up = check("be_app", "s1", null, T0 + 15_000, CheckOutcome.pass, 3)
                .setSource("haproxy").setState(TargetState.healthy).build();
        sent.addAll(monitor.onCheck(be, up));
        sent.addAll(monitor.reach(be, T0 + 60_000));
        assertThat(of(AlertType.NO_HEALTHY_TARGETS)).extracting(Notification::firing).containsExactly(true, false);
    }

    @Test
    void sharedDependencyIsDiagnosedFromFastIdenticalFailuresAcrossZonesAtOnce() {
        sent.addAll(monitor.onConfig(state, io.hcwatch.avro.v1.LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, null, null, T0))
                .setHealthCheck(Checks.checkConfig(5000, 10_000)).build()));
        healthyFleet(9, 3, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 30_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                feed(check(TG, "i-" + i, zone(i, 3), s + i * 50L, CheckOutcome.http_status, 12)
                        .setStatusCode(500).setReason("Target.ResponseCodeMismatch").setState(TargetState.unhealthy).build());
            }
        }
        Map<String, String> details = of(AlertType.CORRELATED_FAILURE).get(0).details();
        assertThat(details).containsEntry("diagnosis", "shared_dependency_deep_check");
        assertThat(details.get("failing_check_p50_ms")).isEqualTo("12");
    }

    @Test
    void replacementsThatDieTheSameWayKeepACorrelatedFailureFiringWhileTheAutoScalingGroupSwapsTheFleet() {
        healthyFleet(9, 3, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 40_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                feed(timeout(TG, "i-" + i, zone(i, 3), s + i * 100L));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isNotEmpty().allSatisfy(n -> assertThat(n.firing()).isTrue());
        // launch before terminate: seven replacements register and time out like the rest; then the old ones go
        long launch = t + 40_000;
        for (long s = launch; s < launch + 150_000; s += 10_000) {
            int check = (int) ((s - launch) / 10_000);
            for (int i = 0; i < 7; i++) {
                feed(check(TG, "n-" + i, zone(i, 3), s + i * 100L + 50, CheckOutcome.timeout, 2001)
                        .setState(check < 2 ? TargetState.initial : TargetState.unhealthy)
                        .setReason(check < 2 ? "Elb.InitialHealthChecking" : "Target.Timeout")
                        .setRegisteredAt(java.time.Instant.ofEpochMilli(launch)).build());
            }
            for (int i = 0; i < 9; i++) {
                if (i < 7 && check == 4) {
                    feed(check(TG, "i-" + i, zone(i, 3), s + i * 100L, CheckOutcome.other, 0)
                            .setState(TargetState.draining).setReason("Target.DeregistrationInProgress").build());
                } else if (i >= 7 || check < 4) {
                    feed(timeout(TG, "i-" + i, zone(i, 3), s + i * 100L));
                }
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).allSatisfy(n -> assertThat(n.firing()).isTrue());
        assertThat(of(AlertType.REPLACEMENT_CHURN)).isNotEmpty();
    }

    @Test
    void aZoneLeftWithNothingHealthyIsNotAHealthyZoneToCompareAgainst() {
        long t = T0;
        for (long s = t; s < t + 120_000; s += 10_000) {
            for (int i = 0; i < 3; i++) {
                // zone a: established targets, two of them failing from the second minute
                boolean fails = i < 2 && s >= t + 60_000;
                feed(fails ? timeout(TG, "a-" + i, "us-east-1a", s + i) : pass(TG, "a-" + i, "us-east-1a", s + i, 60));
            }
            for (int i = 0; i < 6; i++) {
                // zones b and c: fresh instances, still in their initial checks and slow to answer
                feed(check(TG, "n-" + i, i < 3 ? "us-east-1b" : "us-east-1c", s + 10 + i, CheckOutcome.timeout, 2001)
                        .setState(TargetState.initial).setReason("Elb.InitialHealthChecking")
                        .setRegisteredAt(java.time.Instant.ofEpochMilli(t)).build());
            }
        }
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
    }

    @Test
    void checksLostInOneZoneAreNotALatencyHeadroomProblem() {
        sent.addAll(monitor.onConfig(state, io.hcwatch.avro.v1.LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, null, null, T0))
                .setHealthCheck(Checks.checkConfig(5000, 10_000)).build()));
        for (long s = T0; s < T0 + 120_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                boolean lost = i % 3 == 1 && s >= T0 + 60_000;
                feed(lost ? HealthCheckResult.newBuilder(timeout(TG, "i-" + i, zone(i, 3), s + i)).setLatencyMs(5001).build()
                        : pass(TG, "i-" + i, zone(i, 3), s + i, 40 + i));
            }
        }
        assertThat(of(AlertType.ZONAL_FAILURE)).isNotEmpty();
        assertThat(of(AlertType.HEALTH_LATENCY_HEADROOM)).isEmpty();
    }

    @Test
    void timeoutsAmongSlowAnswersStillMakeHeadroomCritical() {
        sent.addAll(monitor.onConfig(state, io.hcwatch.avro.v1.LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, null, null, T0))
                .setHealthCheck(Checks.checkConfig(2000, 10_000)).build()));
        for (long s = T0; s < T0 + 120_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                boolean slow = s >= T0 + 60_000;
                feed(slow && i < 2 ? timeout(TG, "i-" + i, zone(i, 3), s + i)
                        : pass(TG, "i-" + i, zone(i, 3), s + i, slow ? 1700 + i * 20 : 300));
            }
        }
        assertThat(of(AlertType.HEALTH_LATENCY_HEADROOM)).isNotEmpty()
                .last().satisfies(n -> assertThat(n.severity()).isEqualTo(Severity.CRITICAL));
    }

    @Test
    void aFreshStartDoesNotFailOpenBeforeItHasHeardFromEveryTarget() {
        sent.addAll(monitor.onConfig(state, io.hcwatch.avro.v1.LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, 50.0, 50.0, T0))
                .setRegisteredTargets(18).setHealthCheck(Checks.checkConfig(5000, 10_000)).build()));
        // the first checks trickle in over one interval: 1/18, 2/18, ... healthy as far as hcwatch knows
        healthyFleet(18, 3, T0 + 100, 60);
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).isEmpty();
        assertThat(of(AlertType.DNS_FAILOVER)).isEmpty();
        // once settled, a real drop below half still fails open
        long t = T0 + 60_100;
        for (long s = t; s < t + 40_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                feed(i < 10 ? timeout(TG, "i-" + i, zone(i, 3), s + i * 100L) : pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 120));
            }
        }
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).isNotEmpty();
    }

    @Test
    void aServerGoingDownWhileHaproxySaysOthersAreLeftIsNotABackendWithoutServers() {
        Monitored<FleetState> be = monitor.newState("be-web");
        // the first lines HAProxy ever logs for be-web: web1's check takes it DOWN, then the state message
        // says five servers are still UP
        HealthCheckResult check = check("be-web", "web1", null, T0, CheckOutcome.connect_error, 0).setSource("haproxy")
                .setLb("lb1").setReason("Layer4 connection problem").setState(TargetState.unhealthy).build();
        HealthCheckResult down = HealthCheckResult.newBuilder(check).setActiveServersLeft(5).build();
        sent.addAll(monitor.onCheck(be, check));
        sent.addAll(monitor.onCheck(be, down));
        sent.addAll(monitor.reach(be, T0 + 30_000));
        assertThat(of(AlertType.NO_HEALTHY_TARGETS)).isEmpty();

        HealthCheckResult last = check("be-web", "web2", null, T0 + 31_000, CheckOutcome.connect_error, 0).setSource("haproxy")
                .setLb("lb1").setReason("Layer4 connection problem").setState(TargetState.unhealthy).setActiveServersLeft(0).build();
        sent.addAll(monitor.onCheck(be, last));
        assertThat(of(AlertType.NO_HEALTHY_TARGETS)).singleElement().satisfies(n -> assertThat(n.firing()).isTrue());
    }

    @Test
    void theFirstFailuresOfAFleetWideFaultAreNotJudgedAgainstOtherZonesCheckedBeforeIt() {
        long t = T0 + 60_000;
        for (long s = T0; s < T0 + 120_000; s += 10_000) {
            for (int k = 0; k < 9; k++) {
                // zone a's targets (0, 3, 6) are checked at the start of each interval, the others five seconds later
                int i = k < 3 ? k * 3 : (k < 6 ? (k - 3) * 3 + 1 : (k - 6) * 3 + 2);
                long at = s + (i % 3 == 0 ? i * 10L : 5_000 + i * 10L);
                feed(at >= t ? check(TG, "i-" + i, zone(i, 3), at, CheckOutcome.http_status, 12).setStatusCode(503)
                        .setReason("Target.ResponseCodeMismatch").setState(TargetState.healthy).build()
                        : pass(TG, "i-" + i, zone(i, 3), at, 40));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isNotEmpty();
        assertThat(of(AlertType.ZONAL_FAILURE)).isEmpty();
    }

    @Test
    void aZoneThatATimeoutCascadeReachesFirstIsDiagnosedAsTimeoutBelowLatency() {
        for (long s = T0; s < T0 + 120_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                feed(check(TG, "i-" + i, zone(i, 3), s + i * 10L, CheckOutcome.pass, 1500 + i * 20)
                        .setState(TargetState.healthy).setCheck(Checks.checkConfig(5000, 10_000)).build());
            }
        }
        long cut = T0 + 120_000;
        for (long s = cut; s < cut + 30_000; s += 10_000) {
            for (int i = 0; i < 9; i++) {
                boolean first = i % 3 == 0 && i < 6;
                feed((first ? check(TG, "i-" + i, zone(i, 3), s + i * 10L, CheckOutcome.timeout, 2001).setReason("Target.Timeout")
                        : check(TG, "i-" + i, zone(i, 3), s + i * 10L, CheckOutcome.pass, 1700 + i * 20))
                        .setState(TargetState.healthy).setCheck(Checks.checkConfig(2000, 10_000)).build());
            }
        }
        assertThat(of(AlertType.ZONAL_FAILURE)).isNotEmpty()
                .allSatisfy(n -> assertThat(n.details()).containsEntry("diagnosis", "timeout_below_latency"));
    }

    @Test
    void oneZoneFailingPlusALoneTargetElsewhereIsNotSpreadAcrossZones() {
        healthyFleet(18, 3, T0, 60);
        long t = T0 + 60_000;
        for (long s = t; s < t + 40_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                // zone b (i % 3 == 1) fails on five of its six targets; one target of zone c blips
                boolean fails = (i % 3 == 1 && i < 15) || i == 2;
                feed(fails ? timeout(TG, "i-" + i, zone(i, 3), s + i * 100L) : pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 120));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isEmpty();
        // a second target failing outside zone b does make it a spread
        for (long s = t + 40_000; s < t + 60_000; s += 10_000) {
            for (int i = 0; i < 18; i++) {
                boolean fails = (i % 3 == 1 && i < 15) || i == 2 || i == 5;
                feed(fails ? timeout(TG, "i-" + i, zone(i, 3), s + i * 100L) : pass(TG, "i-" + i, zone(i, 3), s + i * 100L, 120));
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).isNotEmpty();
    }

    @Test
    void targetsKnownOnlyThroughChecksThatCouldNotBeReadAreUnknownNotUnhealthy() {
        // 12 registered; 4 report healthy, 6 are named only by checks hcwatch could not read, 2 never report
        LbConfig config = LbConfig.newBuilder(Checks.targetGroupConfig(TG, true, 50.0, 50.0, T0)).setRegisteredTargets(12).build();
        sent.addAll(monitor.onConfig(state, config));
        for (long t = T0; t < T0 + 120_000; t += 10_000) {
            for (int i = 0; i < 4; i++) {
                feed(pass(TG, "i-" + i, zone(i, 2), t + i * 10L, 100));
            }
            for (int i = 4; i < 10; i++) {
                sent.addAll(monitor.onUnreadable(state, new io.hcwatch.avro.internal.TargetSeen(TG, "i-" + i, t + i * 10L, "health")));
            }
        }
        assertThat(state.state.healthy()).isEqualTo(4);
        assertThat(state.state.unknown()).isEqualTo(8);
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).isEmpty();
        assertThat(of(AlertType.DNS_FAILOVER)).isEmpty();

        // the four readable targets fail: with 8 unknown counted as if healthy the pool is still at 8/12
        for (long t = T0 + 120_000; t < T0 + 180_000; t += 10_000) {
            for (int i = 0; i < 4; i++) {
                feed(timeout(TG, "i-" + i, zone(i, 2), t + i * 10L));
            }
        }
        assertThat(of(AlertType.FAIL_OPEN_ROUTING)).isEmpty();
        assertThat(of(AlertType.CORRELATED_FAILURE)).first().satisfies(n -> assertThat(n.details()).containsEntry("unknown", "8"));
    }

    @Test
    void targetsReplacedAsSoonAsTheyFailStillCountAmongTheFailuresOfTheirWindow() {
        healthyFleet(18, 3, T0, 120);
        // one target fails every 8s and is drained by its Auto Scaling group 20s later: never more than
        // three failing members at once, yet six failures within a minute
        long t = T0 + 120_000;
        java.util.Map<Integer, Long> failedAt = new java.util.HashMap<>();
        for (long s = t; s < t + 70_000; s += 1_000) {
            int next = (int) ((s - t) / 8_000);
            if ((s - t) % 8_000 == 0 && next < 9) {
                failedAt.put(next, s);
            }
            for (int i = 0; i < 18; i++) {
                Long failed = failedAt.get(i);
                if (failed == null) {
                    if (s % 10_000 == i * 100L % 10_000) {
                        feed(pass(TG, "i-" + i, zone(i, 3), s, 120));
                    }
                } else if (s - failed == 20_000) {
                    feed(check(TG, "i-" + i, zone(i, 3), s, CheckOutcome.other, 0).setState(TargetState.draining).build());
                } else if (s - failed < 20_000 && (s - failed) % 5_000 == 0) {
                    feed(timeout(TG, "i-" + i, zone(i, 3), s));
                }
            }
        }
        assertThat(of(AlertType.CORRELATED_FAILURE)).first().satisfies(n -> {
            assertThat(n.eventTime()).isEqualTo(t + 5 * 8_000);
            assertThat(n.details()).containsEntry("failing", "6").containsEntry("replaced", "3");
            assertThat(n.summary()).contains("3 of them already replaced");
        });
    }

    @Test
    void aRollingDeployDrainingHealthyTargetsOneByOneRaisesNothing() {
        healthyFleet(18, 3, T0, 120);
        long t = T0 + 120_000;
        for (long s = t; s < t + 180_000; s += 1_000) {
            int drained = (int) ((s - t) / 10_000);
            for (int i = 0; i < 18; i++) {
                if (i < drained) {
                    continue;
                }
                if (i == drained - 0 && (s - t) % 10_000 == 9_000) {
                    feed(check(TG, "i-" + i, zone(i, 3), s, CheckOutcome.other, 0).setState(TargetState.draining).build());
                } else if (s % 10_000 == i * 100L % 10_000) {
                    feed(pass(TG, "i-" + i, zone(i, 3), s, 120));
                }
            }
        }
        assertThat(sent).isEmpty();
    }
}
