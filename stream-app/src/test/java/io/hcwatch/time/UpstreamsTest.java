package io.hcwatch.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which input partitions a monitor hears of going silent, and when: once each time one stops
 * being waited for by the silent timeout, never for one that is idle, and again only after it has
 * reported since.
 */
class UpstreamsTest {

    private static final long T0 = 1_772_546_400_000L;
    private static final long SILENT = 120_000;
    private static final int TICKS = 480;
    private static final long MAX_LAG = 300_000;

    private final Upstreams upstreams = new Upstreams(SILENT, TICKS, MAX_LAG);
    private long wall = 5_000_000;

    @Test
    void aPartitionExpectedAtStartThatNeverReportsIsNamedOnceWhenTheTimeoutPassesAndNoLongerHoldsTheWatermark() {
        upstreams.expect("health-0", wall);
        upstreams.expect("health-1", wall);
        upstreams.report("health-0", T0, false, wall);
        passWithReportsFrom("health-0", SILENT - 1_000);
        assertThat(upstreams.newlySilent(wall)).isEmpty();
        assertThat(upstreams.watermark(wall)).as("health-1 still waited for").isEqualTo(Long.MIN_VALUE);

        passWithReportsFrom("health-0", 1_000);
        assertThat(upstreams.newlySilent(wall)).containsExactly(new Upstreams.Silenced("health-1", SILENT, true));
        assertThat(upstreams.watermark(wall)).isEqualTo(T0 + SILENT);
        passWithReportsFrom("health-0", 5_000);
        assertThat(upstreams.newlySilent(wall)).as("named once").isEmpty();
    }

    @Test
    void aPartitionThatStopsReportingIsNamedWithHowLongItWasUnheardAndAgainOnlyAfterItHasReportedInBetween() {
        upstreams.report("health-0", T0, false, wall);
        upstreams.report("health-1", T0, false, wall);
        passWithReportsFrom("health-0", 130_000);
        assertThat(upstreams.newlySilent(wall)).containsExactly(new Upstreams.Silenced("health-1", 130_000, false));

        upstreams.report("health-1", T0 + 140_000, false, wall);
        assertThat(upstreams.newlySilent(wall)).isEmpty();
        passWithReportsFrom("health-0", 121_000);
        assertThat(upstreams.newlySilent(wall)).containsExactly(new Upstreams.Silenced("health-1", 121_000, false));
    }

    @Test
    void anIdlePartitionIsNotSilentHoweverLongItSaysNothing() {
        upstreams.report("health-0", T0, false, wall);
        upstreams.report("health-1", T0, true, wall);
        passWithReportsFrom("health-0", 600_000);
        assertThat(upstreams.newlySilent(wall)).isEmpty();
    }

    @Test
    void aMonitorStarvedOfTicksNamesNothingThoughTheWallClockMoved() {
        upstreams.report("health-0", T0, false, wall);
        upstreams.report("health-1", T0, false, wall);
        wall += 10 * SILENT;
        upstreams.tick();
        assertThat(upstreams.newlySilent(wall)).isEmpty();
    }

    @Test
    void afterARestoreEverySavedPartitionIsWaitedForAgainAndNamedAgainWhenItStaysSilent() {
        upstreams.report("health-0", T0, false, wall);
        upstreams.report("health-1", T0, false, wall);
        passWithReportsFrom("health-0", SILENT);
        assertThat(upstreams.newlySilent(wall)).extracting(Upstreams.Silenced::id).containsExactly("health-1");

        Upstreams restarted = new Upstreams(SILENT, TICKS, MAX_LAG);
        restarted.restore(Map.copyOf(upstreams.table()), wall);
        assertThat(restarted.newlySilent(wall)).isEmpty();
        for (int i = 0; i < TICKS; i++) {
            restarted.tick();
        }
        wall += SILENT;
        assertThat(restarted.newlySilent(wall)).extracting(Upstreams.Silenced::id)
                .containsExactlyInAnyOrderElementsOf(List.of("health-0", "health-1"));
    }

    /** {@code millis} of wall time in monitor ticks of 250 ms, {@code id} reporting event time at the wall's pace. */
    private void passWithReportsFrom(String id, long millis) {
        long start = upstreams.table().get(id).time;
        for (long passed = 250; passed <= millis; passed += 250) {
            wall += 250;
            upstreams.tick();
            upstreams.report(id, start + passed, false, wall);
        }
    }
}
