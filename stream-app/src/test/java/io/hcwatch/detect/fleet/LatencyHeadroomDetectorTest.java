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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * health_latency_headroom: check p99 over 60s (≥ 20 samples) ≥ 50% of the timeout warns; ≥ 80%,
 * or timeouts on ≥ 2 targets, is critical; timeouts among fast answers are lost checks, not
 * headroom. Latencies below 256ms, which the histograms hold exactly, keep the edges exact.
 * Checks come one a second from T0, three targets in turn.
 */
class LatencyHeadroomDetectorTest {

    private final LatencyHeadroomDetector detector = new LatencyHeadroomDetector(Fleet.SETTINGS);

    /** A target group whose check times out after {@code timeoutMs} (none when null), checked every 10s. */
    private static Fleet withTimeout(Integer timeoutMs) {
        Fleet fleet = Fleet.alb();
        if (timeoutMs != null) {
            fleet.apply(Checks.lbConfig(Fleet.TG, T0).setHealthCheck(Checks.checkConfig(timeoutMs, 10_000)).build());
        }
        return fleet;
    }

    /** {@code n} passing checks of {@code latencyMs}, one a second from T0 + from seconds, over targets a-0..a-2. */
    private static Fleet passing(Fleet fleet, int from, int n, int latencyMs) {
        for (int k = from; k < from + n; k++) {
            fleet.apply(fleet.check("a", "a-" + k % 3, T0 + k * 1000L, CheckOutcome.pass, latencyMs)
                    .setState(TargetState.healthy).build());
        }
        return fleet;
    }

    /** Targets t-0.. each time out once at {@code at}, with the given latency (null: none recorded). */
    private static Fleet timeouts(Fleet fleet, int targets, long at, Integer latencyMs) {
        for (int i = 0; i < targets; i++) {
            fleet.apply(fleet.check("b", "t-" + i, at, CheckOutcome.timeout, 0).setLatencyMs(latencyMs)
                    .setState(TargetState.unhealthy).build());
        }
        return fleet;
    }

    @ParameterizedTest(name = "timeout {0}ms, {1} checks of {2}ms, timeouts on {3} targets -> {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # timeout | samples | latency | timeout targets | severity | why
            250       | 19      | 200     | 0               | none     | fewer than 20 samples
            250       | 20      | 124     | 0               | none     | p99 just under half the timeout
            250       | 20      | 125     | 0               | WARNING  | p99 at half the timeout
            250       | 20      | 199     | 0               | WARNING  | p99 just under 80%
            250       | 20      | 200     | 0               | CRITICAL | p99 at 80%
            250       | 20      | 250     | 0               | CRITICAL | p99 at the timeout
            250       | 20      | 130     | 1               | WARNING  | timeouts on one target
            250       | 20      | 130     | 2               | CRITICAL | timeouts on two targets
            -         | 20      | 250     | 0               | none     | no timeout known to compare with
            """)
    void warnsAtHalfTheTimeoutAndIsCriticalAtEightyPercentOrTimeoutsOnTwoTargets(Integer timeout, int samples, int latency,
                                                                                 int timeoutTargets, String severity,
                                                                                 String why) {
        Fleet fleet = passing(withTimeout(timeout), 0, samples, latency);
        timeouts(fleet, timeoutTargets, T0 + 25_000, null);
        assertThat(fleet.judge(detector, T0 + 30_000)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    @ParameterizedTest(name = "{1} passing checks of {0}ms and 5 timeouts at the timeout -> {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # passing latency | passing samples | severity | why
            50                | 20              | none     | the answers are fast: the timeouts are checks lost, not slow
            124               | 20              | none     | answers just under half the timeout: still lost, not slow
            125               | 20              | CRITICAL | answers at half the timeout: the timeouts are the slow tail
            50                | 19              | CRITICAL | too few answers to tell: the timeouts count at the timeout
            """)
    void timeoutsAmongFastAnswersAreLostChecksNotMissingHeadroom(int latency, int samples, String severity, String why) {
        Fleet fleet = passing(withTimeout(250), 0, samples, latency);
        timeouts(fleet, 5, T0 + 25_000, 250);
        assertThat(fleet.judge(detector, T0 + 30_000)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    @ParameterizedTest(name = "20 checks from T0 to T0+19s, judged at T0+{0}ms -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # judged at | severity | why
            19000       | WARNING  | all 20 in the window
            69999       | WARNING  | the first 10s slot still overlaps the 60s window
            70000       | none     | the first slot has left the window: 10 samples
            """)
    void samplesLeaveTheWindowASlotAtATime(long judgedAt, String severity, String why) {
        Fleet fleet = passing(withTimeout(250), 0, 20, 125);
        assertThat(fleet.judge(detector, T0 + judgedAt)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    @ParameterizedTest(name = "p99 rising 1ms/s to 220ms, timeout {0}ms -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # timeout | time until p99 reaches the timeout
            400       | 3m
            250       | 30s
            220       | reached
            """)
    void reportsTheP99SlopeAndTheTimeUntilItReachesTheTimeout(int timeout, String timeUntil) {
        Fleet fleet = withTimeout(timeout);
        for (int k = 0; k <= 120; k++) {
            passing(fleet, k, 1, 100 + k);
            if (k >= 20 && k % 10 == 0) {
                fleet.steps(T0 + k * 1000L, T0 + k * 1000L);
            }
        }
        assertThat(fleet.judge(detector, T0 + 120_000)).singleElement().satisfies(f -> assertThat(f.details())
                .containsEntry("p99_ms", "220").containsEntry("p99_slope_ms_per_min", "60.0")
                .containsEntry("time_until_p99_reaches_timeout", timeUntil));
    }

    @Test
    void theFindingGivesTheQuantilesAndARecommendedTimeout() {
        // 1024ms lies in a histogram bucket of 8ms, reported at its top: 1031ms; 10 x 1031ms rounds up to 11s
        Fleet fleet = passing(withTimeout(2000), 0, 20, 1024);
        assertThat(fleet.judge(detector, T0 + 30_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.HEALTH_LATENCY_HEADROOM, Severity.WARNING, "health_latency_headroom/prod-web-tg",
                    T0 - 30_000, T0 + 30_000);
            assertThat(f.details()).containsEntry("p50_ms", "1031").containsEntry("p99_ms", "1031")
                    .containsEntry("samples", "20").containsEntry("timeout_ms", "2000").containsEntry("headroom_ratio", "0.52")
                    .containsEntry("timeout_targets", "0").containsEntry("p99_slope_ms_per_min", "unknown")
                    .containsEntry("time_until_p99_reaches_timeout", "not rising").containsEntry("recommended_timeout_ms", "11000")
                    .containsEntry("interval_ms", "10000")
                    .containsEntry("note", "the recommended timeout needs an interval above it (ALB requires timeout < interval)");
            assertThat(f.summary()).isEqualTo("health check p99 of prod-web-tg is 1031ms, 52% of the 2000ms timeout;"
                    + " recommended timeout 11s");
        });
    }

    @Test
    void aSmallP99IsRecommendedTheTenSecondFloor() {
        Fleet fleet = passing(withTimeout(250), 0, 20, 125);
        timeouts(fleet, 1, T0 + 25_000, null);
        assertThat(fleet.judge(detector, T0 + 30_000)).singleElement().satisfies(f -> {
            assertThat(f.details()).containsEntry("recommended_timeout_ms", "10000").containsEntry("timeout_targets", "1");
            assertThat(f.summary()).contains("; 1 target timed out;");
        });
    }
}
