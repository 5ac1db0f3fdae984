package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.input.Check;
import io.hcwatch.input.LoadBalancerConfig;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which records the fleet detection reports as changing what its findings rest on, so that the
 * monitor judges them at once inside a batch (io.hcwatch.alert.KeyMonitor): a target that joins,
 * leaves or changes state, a first failure and a recovery, and configs; not a check that leaves
 * its target as it was.
 */
class FleetTransitionsTest {

    private static final String TG = "prod-web-tg";
    private static final String AZ = "us-east-1a";

    static Stream<Arguments> cases() {
        HealthCheckResult healthy = Checks.pass(TG, "i-1", AZ, T0, 20);
        return Stream.of(
                Arguments.of("a target's first check: it joins", null, healthy, true),
                Arguments.of("a pass after a pass, healthy both times", healthy, Checks.pass(TG, "i-1", AZ, T0 + 10_000, 25), false),
                Arguments.of("healthy to unhealthy", healthy, Checks.timeout(TG, "i-1", AZ, T0 + 10_000), true),
                Arguments.of("a first failure, still healthy (below the threshold): it starts failing", healthy,
                        failingButHealthy(T0 + 10_000), true),
                Arguments.of("a second failure in a row, still healthy", failingButHealthy(T0 + 10_000),
                        failingButHealthy(T0 + 20_000), false),
                Arguments.of("a pass after a failure: it recovers", failingButHealthy(T0 + 10_000),
                        Checks.pass(TG, "i-1", AZ, T0 + 20_000, 25), true),
                Arguments.of("draining: it leaves", healthy,
                        Checks.check(TG, "i-1", AZ, T0 + 10_000, CheckOutcome.pass, 20).setState(TargetState.draining).build(), true),
                Arguments.of("another target's first check", healthy, Checks.pass(TG, "i-2", AZ, T0 + 10_000, 20), true));
    }

    private static HealthCheckResult failingButHealthy(long ts) {
        return Checks.check(TG, "i-1", AZ, ts, CheckOutcome.timeout, 2001).setState(TargetState.healthy).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aCheckIsATransitionWhenItsTargetJoinsLeavesOrChangesState(String name, HealthCheckResult before,
                                                                 HealthCheckResult check, boolean transition) {
        FleetDetection detection = new FleetDetection(FleetSettings.defaults());
        FleetState s = detection.newState(TG, new Check(check));
        if (before != null) {
            detection.apply(s, new Check(before), before.getTs().toEpochMilli());
        }
        assertThat(detection.apply(s, new Check(check), check.getTs().toEpochMilli())).isEqualTo(transition);
    }

    @Test
    void aConfigIsJudgedAtOnce() {
        FleetDetection detection = new FleetDetection(FleetSettings.defaults());
        HealthCheckResult healthy = Checks.pass(TG, "i-1", AZ, T0, 20);
        FleetState s = detection.newState(TG, new Check(healthy));
        detection.apply(s, new Check(healthy), T0);
        LoadBalancerConfig config = new LoadBalancerConfig(Checks.targetGroupConfig(TG, true, null, null, T0 + 20_000));
        assertThat(detection.apply(s, config, T0 + 20_000)).isTrue();
    }
}
