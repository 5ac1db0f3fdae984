package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * correlated_failure on a timeout cut that an Auto Scaling group answers by replacing every target
 * the ALB marks unhealthy ({@link CascadingFleet}): fleets of 6, 18 and 60 targets checked every
 * 10s, failing one after another over 180s, drained 5s or 30s after they turn unhealthy (with a
 * draining record, or falling silent as in the ALB's health-check log). The alert must fire at the
 * check that makes its rule hold, max(3, 30%) distinct targets failing within 60s, replaced ones
 * counted: target j first times out at +j×180s/targets, so the rule holds at the first failure of
 * target max(3, ⌈0.3 × targets⌉) - 1, whether the targets time out steadily ({@code -}) or their
 * latency hovers around the timeout first, a pass between timeouts.
 */
class CorrelatedFailureUnderReplacementTest {

    private static final long CUT = T0 + 300_000;

    @ParameterizedTest(name = "{0} targets, checks {1} then timeouts, drained {2}s after unhealthy (record: {3}) -> +{4}s")
    @CsvSource(delimiter = '|', textBlock = """
            # targets | pattern | drain s | draining record | rule holds at +s
            6         | -       | 5       | false           | 60
            18        | -       | 5       | false           | 50
            60        | -       | 5       | false           | 51
            6         | -       | 30      | false           | 60
            18        | -       | 30      | false           | 50
            60        | -       | 30      | false           | 51
            6         | T.T.    | 5       | false           | 60
            18        | T.T.    | 5       | false           | 50
            60        | T.T.    | 5       | false           | 51
            6         | T.T.    | 30      | false           | 60
            18        | T.T.    | 30      | false           | 50
            60        | T.T.    | 30      | false           | 51
            18        | T.T.    | 5       | true            | 50
            18        | T.T.    | 30      | true            | 50
            60        | T.T.    | 5       | true            | 51
            """)
    void firesAtTheCheckThatMakesItsRuleHold(int targets, String pattern, int drainSeconds, boolean drainingRecord, int holdsAt) {
        FleetHarness monitor = new FleetHarness(Settings.defaults());
        Monitored<FleetState> m = monitor.newState(Fleet.TG);
        List<HealthCheckResult> checks = new CascadingFleet(targets, 10_000, 180_000, pattern.equals("-") ? "" : pattern,
                drainSeconds * 1000L, drainingRecord).checks(T0, CUT, CUT + 600_000);
        List<Notification> sent = new ArrayList<>();
        for (HealthCheckResult c : checks) {
            sent.addAll(monitor.onCheck(m, c));
        }
        List<Notification> correlated = sent.stream().filter(n -> n.type() == AlertType.CORRELATED_FAILURE).toList();
        assertThat(correlated).isNotEmpty();
        assertThat(correlated.get(0).eventTime() - CUT).as(correlated.get(0).summary()).isEqualTo(holdsAt * 1000L);
        // the cascade goes on to the end: it never resolves in between
        assertThat(correlated).allSatisfy(n -> assertThat(n.firing()).isTrue());
    }
}
