package io.hcwatch.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.config.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CI-sized version of {@code ./hcwatch bench state}: target groups come and go for three days
 * and the fleet store stays flat after the first, at the size the workload implies (worked out
 * below by hand); with deletion off the same kind of workload grows with every group seen, so the
 * flatness is the deletion's doing.
 */
class ChurnRunTest {

    private static final long HOUR = ChurnRun.HOUR;

    @Test
    void theFleetStoreStaysFlatAfterTheFirstDayWhileGroupsComeAndGo() {
        // 600 groups over 72 h: one starts every 432 s; each sends for 2 h, then is kept 2 h idle (plus a step)
        // and deleted, so about 4 h / 432 s = 33.3 groups are in the store at any time, plus the heartbeat
        List<ChurnRun.Sample> curve = ChurnRun.run(600, 1, 72 * HOUR, 2 * HOUR, 60_000,
                Settings.defaults().with(Map.of("state.idle-timeout", "2h")), 3, s -> { });
        int firstDayPeak = curve.stream().filter(s -> s.hour() <= 24).mapToInt(ChurnRun.Sample::keys).max().orElseThrow();
        long firstDayBytes = curve.stream().filter(s -> s.hour() <= 24).mapToLong(ChurnRun.Sample::bytes).max().orElseThrow();
        List<ChurnRun.Sample> later = curve.stream().filter(s -> s.hour() > 24).toList();
        assertThat(later).hasSizeGreaterThanOrEqualTo(15);
        for (ChurnRun.Sample s : later) {
            assertThat(s.keys()).as("keys at hour %d", s.hour()).isBetween(32, 36).isLessThanOrEqualTo(firstDayPeak + 1);
            assertThat(s.bytes()).as("bytes at hour %d", s.hour()).isLessThanOrEqualTo(firstDayBytes * 11 / 10);
        }
    }

    @Test
    void withoutDeletionTheStoreKeepsEveryGroupSeen() {
        // 100 groups over 24 h, one every 864 s: at hour 21 the groups started so far are 21 h / 864 s + 1 = 88 (+ heartbeat)
        List<ChurnRun.Sample> curve = ChurnRun.run(100, 1, 24 * HOUR, 2 * HOUR, 60_000,
                Settings.defaults().with(Map.of("state.idle-timeout", "0s")), 3, s -> { });
        ChurnRun.Sample at21 = curve.stream().filter(s -> s.hour() == 21).findFirst().orElseThrow();
        assertThat(at21.keys()).isEqualTo(89);
    }
}
