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
 * health_check_config_risk: a stricter check whose new timeout is < 10x the peak p99 of the hour
 * before the change warns, < 2x is critical; judged from the change until it is superseded or an
 * hour has passed. Most rows set the recorded {@link CheckChange} directly; the last table makes
 * FleetDetection record it.
 */
class ConfigRiskDetectorTest {

    private static final long CHANGED = T0 + 600_000;
    private final ConfigRiskDetector detector = new ConfigRiskDetector(Fleet.SETTINGS);

    /** {@code timeout=5000,interval=30000,unhealthy=3,healthy=3,path=/health}; fields left out are unknown. */
    private static CheckSettings settings(String spec) {
        CheckSettings s = new CheckSettings();
        for (String part : spec.split(",")) {
            String[] kv = part.split("=");
            switch (kv[0]) {
                case "timeout" -> s.timeoutMs = Integer.valueOf(kv[1]);
                case "interval" -> s.intervalMs = Integer.valueOf(kv[1]);
                case "unhealthy" -> s.unhealthyThreshold = Integer.valueOf(kv[1]);
                case "healthy" -> s.healthyThreshold = Integer.valueOf(kv[1]);
                case "path" -> s.path = kv[1];
                default -> throw new IllegalArgumentException(part);
            }
        }
        return s;
    }

    /** A target group whose check changed from {@code before} to {@code after} at CHANGED, the hour before peaking at {@code peak}. */
    private static Fleet changed(String before, String after, double peak) {
        Fleet fleet = Fleet.alb().healthy("a=2,b=2", T0);
        fleet.state.check.settings = settings(after);
        fleet.state.check.lastChange = new CheckChange(CHANGED, settings(before), settings(after), peak);
        return fleet;
    }

    @ParameterizedTest(name = "{0} -> {1}, peak p99 {2}ms -> {3}: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # before                      | after                         | peak p99 | severity | why
            timeout=5000                  | timeout=2000                  | 1000     | WARNING  | 2x the peak: not below 2x
            timeout=5000                  | timeout=2000                  | 1001     | CRITICAL | just under 2x
            timeout=12000                 | timeout=9999                  | 1000     | WARNING  | just under 10x
            timeout=12000                 | timeout=10000                 | 1000     | none     | 10x: enough headroom
            timeout=5000,interval=30000   | timeout=5000,interval=10000   | 1000     | WARNING  | a shorter interval is stricter
            timeout=5000,unhealthy=3      | timeout=5000,unhealthy=2      | 1000     | WARNING  | a lower unhealthy threshold is stricter
            timeout=5000,path=/health     | timeout=5000,path=/deep       | 1000     | WARNING  | a new path may check more
            timeout=5000,unhealthy=2      | timeout=5000,unhealthy=5      | 1000     | none     | a higher unhealthy threshold is more lenient
            timeout=5000,healthy=3        | timeout=5000,healthy=5        | 1000     | none     | the healthy threshold never makes a target fail
            timeout=2000,interval=30000   | timeout=3000,interval=10000   | 1000     | none     | a longer timeout never fires, whatever else changed
            interval=30000                | interval=10000                | 1000     | none     | the new timeout is unknown
            timeout=5000                  | timeout=2000                  | NaN      | none     | no latency known from before the change
            timeout=5000                  | timeout=2000                  | 0        | none     | no latency known from before the change
            """)
    void aStricterCheckWhoseTimeoutIsCloseToThePeakLatencyIsARisk(String before, String after, double peak, String severity,
                                                                  String why) {
        assertThat(changed(before, after, peak).judge(detector, CHANGED)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    @ParameterizedTest(name = "judged {0}ms after a cut to 1500ms, timeout now {1}ms -> {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # judged after | timeout now | severity | why
            0              | 1500        | CRITICAL | at the first record with the new config
            3600000        | 1500        | CRITICAL | an hour later, still inside the lookback
            3600001        | 1500        | none     | the lookback has passed
            60000          | 5000        | none     | superseded: the timeout has changed since
            """)
    void theRiskHoldsUntilTheChangeIsSupersededOrAnHourHasPassed(long after, int timeoutNow, String severity, String why) {
        Fleet fleet = changed("timeout=5000", "timeout=1500", 1000);
        fleet.state.check.settings.timeoutMs = timeoutNow;
        assertThat(fleet.judge(detector, CHANGED + after)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    /** A 5s timeout, and 20 checks of 200ms one a second from T0. */
    private static Fleet checkedAt200ms() {
        Fleet fleet = Fleet.alb().apply(Checks.lbConfig(Fleet.TG, T0).setHealthCheck(Checks.checkConfig(5000, 10_000)).build());
        for (int k = 0; k < 20; k++) {
            fleet.apply(fleet.check("a", "a-" + k % 2, T0 + k * 1000L, CheckOutcome.pass, 200).setState(TargetState.healthy).build());
        }
        return fleet;
    }

    @ParameterizedTest(name = "checks of 200ms {0}, timeout cut to {2}ms at T0+{1}ms -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # 20 checks of 200ms from T0 | cut at  | new timeout | severity | why
            in the current window        | 20000   | 399         | CRITICAL | peak from the latest 60s of checks
            in the current window        | 20000   | 400         | WARNING  | 2x
            in the steps' history        | 1800000 | 399         | CRITICAL | peak from the p99 recorded at each step
            in the steps' history        | 3660000 | 399         | CRITICAL | the last step, at T0+60s, is an hour before the cut
            in the steps' history        | 3660001 | 399         | none     | every step is older than the hour before the cut
            """)
    void theDetectionRecordsThePeakOfTheHourBeforeTheChange(String where, long cutAt, int newTimeout, String severity,
                                                           String why) {
        Fleet fleet = checkedAt200ms();
        if (where.contains("history")) {
            fleet.steps(T0 + 20_000, T0 + 60_000);
        }
        fleet.apply(Checks.lbConfig(Fleet.TG, T0 + cutAt).setHealthCheck(Checks.checkConfig(newTimeout, 10_000)).build());
        assertThat(fleet.judge(detector, T0 + cutAt)).as(why).extracting(Finding::severity)
                .containsExactlyElementsOf(severities(severity));
    }

    @Test
    void revertingACutSupersedesItsRisk() {
        Fleet fleet = checkedAt200ms();
        fleet.apply(Checks.lbConfig(Fleet.TG, T0 + 20_000).setHealthCheck(Checks.checkConfig(300, 10_000)).build());
        assertThat(fleet.judge(detector, T0 + 20_000)).hasSize(1);
        fleet.apply(Checks.lbConfig(Fleet.TG, T0 + 30_000).setHealthCheck(Checks.checkConfig(5000, 10_000)).build());
        assertThat(fleet.judge(detector, T0 + 30_000)).isEmpty();
    }

    @Test
    void theFindingSaysWhatChangedAndRecommendsATimeout() {
        Fleet fleet = changed("timeout=5000,interval=30000,unhealthy=3", "timeout=2000,interval=10000,unhealthy=2", 1200);
        assertThat(fleet.judge(detector, CHANGED + 5_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.HEALTH_CHECK_CONFIG_RISK, Severity.CRITICAL, "health_check_config_risk/prod-web-tg",
                    CHANGED - 3_600_000, CHANGED);
            assertThat(f.details()).containsEntry("changes", "timeout 5000ms -> 2000ms; interval 30000ms -> 10000ms;"
                            + " unhealthy_threshold 3 -> 2")
                    .containsEntry("old_timeout_ms", "5000").containsEntry("new_timeout_ms", "2000")
                    .containsEntry("old_interval_ms", "30000").containsEntry("new_interval_ms", "10000")
                    .containsEntry("old_unhealthy_threshold", "3").containsEntry("new_unhealthy_threshold", "2")
                    .containsEntry("peak_p99_ms", "1200").containsEntry("timeout_over_peak_p99", "1.67")
                    .containsEntry("recommended_timeout_ms", "12000").containsEntry("changed_at", "2026-03-03T14:40:00Z");
            assertThat(f.summary()).isEqualTo("health check of prod-web-tg changed (timeout 5000ms -> 2000ms, interval 30000ms"
                    + " -> 10000ms, unhealthy_threshold 3 -> 2): new timeout 2000ms is 1.7x the peak p99 check latency of the"
                    + " last 1h (1200ms); recommended timeout 12s");
        });
    }
}
