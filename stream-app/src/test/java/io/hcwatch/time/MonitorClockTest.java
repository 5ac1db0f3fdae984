package io.hcwatch.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The monitor's clock, with explicit event and wall times: what reaches the keys, in which order,
 * and when the steps run, as upstreams report, stall, go idle and come back.
 */
class MonitorClockTest {

    private static final long T0 = 1_772_546_400_000L; // 2026-03-03T14:00:00Z, a step boundary
    private static final long STEP = 10_000;
    private static final long GRACE = 30_000;
    private static final long IDLE = 10_000;
    private static final long MAX_LAG = 300_000;

    private final Recorder keys = new Recorder();
    private final MonitorClock<String> clock = new MonitorClock<>(STEP, GRACE, IDLE, MAX_LAG, true);
    private long wall = 1_000_000;

    @Test
    void recordsReadMinutesApartReachTheirKeysInEventTimeOrderWithTheStepsBetween() {
        clock.report("health-0", T0, false, wall, keys);
        clock.report("health-1", T0, false, wall, keys);
        // partition 0 is read two minutes ahead of partition 1
        for (long t = T0 + 5_000; t <= T0 + 120_000; t += 5_000) {
            clock.offer("tg", "p0@" + (t - T0) / 1000, t, wall, keys);
        }
        clock.report("health-0", T0 + 120_000, false, wall, keys);
        assertThat(keys.seen).isEmpty();

        for (long t = T0 + 7_000; t <= T0 + 22_000; t += 5_000) {
            clock.offer("tg", "p1@" + (t - T0) / 1000, t, wall, keys);
        }
        clock.report("health-1", T0 + 22_000, false, wall, keys);
        assertThat(keys.seen).containsExactly("p0@5", "p1@7", "step@10", "p0@10", "p1@12", "p0@15", "p1@17",
                "step@20", "p0@20", "p1@22");
        assertThat(clock.watermark()).isEqualTo(T0 + 22_000);
        assertThat(clock.heldCount()).isEqualTo(20);
    }

    @Test
    void anExpectedPartitionThatHasNotReportedHoldsTheWatermarkUntilItReachesItsTelemetryOrTheSilentTimeout() {
        clock.expect(java.util.List.of("health-0", "health-1"), wall);
        clock.report("health-0", T0 + 5_000, false, wall, keys);
        clock.offer("tg", "p0@5", T0 + 5_000, wall, keys);
        assertThat(keys.seen).isEmpty();
        clock.offer("tg", "p1@3", T0 + 3_000, wall + 1_000, keys);
        clock.report("health-1", T0 + 6_000, false, wall + 1_000, keys);
        assertThat(keys.seen).containsExactly("p1@3", "p0@5");

        // a source that is all junk is waited for only until the silent timeout
        MonitorClock<String> junky = new MonitorClock<>(STEP, GRACE, IDLE, MAX_LAG, true);
        Recorder junk = new Recorder();
        junky.expect(java.util.List.of("alb-0", "health-0"), wall);
        junky.report("health-0", T0 + 5_000, false, wall, junk);
        junky.offer("tg", "r", T0 + 5_000, wall, junk);
        junky.report("alb-0", Long.MIN_VALUE, false, wall + IDLE - 1, junk);
        junky.wallTick(wall + IDLE - 1, junk);
        assertThat(junk.seen).isEmpty();
        junky.report("alb-0", Long.MIN_VALUE, false, wall + IDLE, junk);
        junky.wallTick(wall + IDLE, junk);
        assertThat(junk.seen).containsExactly("r");
    }

    @Test
    void aWatermarkHeldForMinutesRunsEveryStepBetweenTheRecordsItHeldWhenItMovesOn() {
        clock.report("health-0", T0, false, wall, keys);
        clock.report("health-1", T0, false, wall, keys);
        for (long t = T0 + 5_000; t <= T0 + 300_000; t += 5_000) {
            clock.offer("tg", "r@" + (t - T0) / 1000, t, wall, keys);
        }
        clock.report("health-0", T0 + 300_000, false, wall, keys);
        assertThat(keys.seen).isEmpty();

        // the lagging partition catches up 30 steps at once
        clock.report("health-1", T0 + 300_000, false, wall, keys);
        java.util.List<String> expected = new java.util.ArrayList<>();
        for (long t = 5; t <= 300; t += 5) {
            if (t % 10 == 0) {
                expected.add("step@" + t);
            }
            expected.add("r@" + t);
        }
        assertThat(keys.seen).containsExactlyElementsOf(expected);
    }

    @Test
    void overASpanWithoutRecordsOnlyTheLatestStepsRun() {
        clock.report("a", T0, false, wall, keys);
        clock.offer("k", "early", T0 + 5_000, wall, keys);
        clock.offer("k", "late", T0 + 1_000_000, wall, keys);
        clock.report("a", T0 + 1_000_000, false, wall, keys);
        // hours of empty steps change nothing: after "early" only the last MAX_CATCH_UP steps before "late" run
        assertThat(keys.seen).hasSize(2 + EvaluationSteps.MAX_CATCH_UP);
        assertThat(keys.seen.get(0)).isEqualTo("early");
        assertThat(keys.seen.get(1)).isEqualTo("step@" + (1_000_000 / 1000 - (EvaluationSteps.MAX_CATCH_UP - 1) * 10));
        assertThat(keys.seen.get(keys.seen.size() - 1)).isEqualTo("late");
    }

    @Test
    void aRecordAtAStepBoundaryComesAfterTheStep() {
        clock.report("a", T0, false, wall, keys);
        clock.offer("k", "at-step", T0 + STEP, wall, keys);
        clock.offer("k", "before", T0 + STEP - 1, wall, keys);
        clock.report("a", T0 + STEP, false, wall, keys);
        assertThat(keys.seen).containsExactly("before", "step@10", "at-step");
    }

    @Test
    void anIdleUpstreamIsNotWaitedForAndWhatItSendsLaterWithinGraceIsNotLate() {
        clock.report("busy", T0, false, wall, keys);
        clock.report("quiet", T0, true, wall, keys);
        clock.offer("k", "r1", T0 + 3_000, wall, keys);
        clock.report("busy", T0 + 5_000, false, wall, keys);
        assertThat(keys.seen).containsExactly("r1");

        clock.offer("k", "from-quiet", T0 + 4_000, wall, keys);
        assertThat(keys.seen).containsExactly("r1", "from-quiet");
        assertThat(keys.late).isEmpty();
    }

    @Test
    void anUpstreamThatStopsReportingHoldsTheWatermarkOnlyUntilTheIdleTimeout() {
        clock.report("a", T0, false, wall, keys);
        clock.report("b", T0, false, wall, keys);
        clock.offer("k", "r", T0 + 1_000, wall, keys);
        clock.report("a", T0 + 2_000, false, wall, keys);
        wall += IDLE - 1;
        clock.wallTick(wall, keys);
        assertThat(keys.seen).isEmpty();
        wall += 1;
        clock.report("a", T0 + 2_000, false, wall, keys);
        clock.wallTick(wall, keys);
        assertThat(keys.seen).containsExactly("r");
    }

    @Test
    void aMonitorWhoseThreadWasStarvedDoesNotTakeItsUpstreamsForSilent() {
        MonitorClock<String> ticking = new MonitorClock<>(STEP, GRACE, IDLE, 4, MAX_LAG, true);
        ticking.report("a", T0, false, wall, keys);
        ticking.report("b", T0, false, wall, keys);
        ticking.offer("k", "r", T0 + 1_000, wall, keys);
        ticking.report("a", T0 + 2_000, false, wall + 60_000, keys);
        // the first tick after a minute without CPU: b was not heard, but nobody was listening
        ticking.wallTick(wall + 60_000, keys);
        assertThat(keys.seen).isEmpty();
        for (int i = 1; i <= 3; i++) {
            ticking.report("a", T0 + 2_000, false, wall + 60_000 + i * 250, keys);
            ticking.wallTick(wall + 60_000 + i * 250, keys);
        }
        assertThat(keys.seen).containsExactly("r");
    }

    @Test
    void inReplayReportsAreExactAndAnUpstreamIsWaitedForHoweverLongItTakes() {
        MonitorClock<String> replay = new MonitorClock<>(STEP, GRACE, 0, MAX_LAG, false);
        replay.report("a", T0, false, 0, keys);
        replay.report("b", T0, false, 0, keys);
        replay.offer("k", "r", T0 + 1_000, 0, keys);
        replay.report("a", T0 + 60_000, false, 0, keys);
        replay.wallTick(Long.MAX_VALUE / 2, keys);
        assertThat(keys.seen).isEmpty();
        replay.report("b", T0 + 1_000, false, 0, keys);
        assertThat(keys.seen).containsExactly("r");
    }

    @Test
    void anUpstreamFurtherBehindThanTheMaximumLagIsNotWaitedForAndItsRecordsCountAsLate() {
        clock.report("ahead", T0, false, wall, keys);
        clock.report("behind", T0, false, wall, keys);
        clock.offer("k", "ahead@301", T0 + MAX_LAG + 1_000, wall, keys);
        clock.report("ahead", T0 + MAX_LAG + 1_000, false, wall, keys);
        assertThat(keys.seen).contains("ahead@301");

        clock.offer("k", "behind@20", T0 + 20_000, wall, keys);
        assertThat(keys.seen).endsWith("behind@20");
        assertThat(keys.late).containsExactly("behind@20");
    }

    @Test
    void aBatchedUpstreamHoldsTheWatermarkByAtMostItsDelayAndIsNeverFarBehindForIt() {
        long delay = 600_000;
        MonitorClock<String> batched = new MonitorClock<>(STEP, GRACE, IDLE, 0, MAX_LAG,
                id -> id.startsWith("logs") ? delay : 0, true);
        batched.report("logs-0", T0, false, wall, keys);
        batched.report("health-0", T0 + 100_000, false, wall, keys);
        assertThat(batched.watermark()).as("its own report is ahead of newest less delay").isEqualTo(T0);
        batched.report("health-0", T0 + 800_000, false, wall, keys);
        // 13 minutes behind: past the maximum lag, but within it plus the delay; counted complete to 800 s - 600 s
        assertThat(batched.watermark()).isEqualTo(T0 + 200_000);
        batched.offer("k", "logs@210", T0 + 210_000, wall, keys);
        assertThat(keys.seen).doesNotContain("logs@210");
        assertThat(keys.late).isEmpty();
    }

    @Test
    void withNothingToWaitForRecordsGoStraightThroughAndRunTheStepsTheyPass() {
        clock.offer("k", "first", T0 + 1_000, wall, keys);
        clock.offer("k", "second", T0 + 12_000, wall, keys);
        assertThat(keys.seen).containsExactly("first", "step@10", "second");
        assertThat(clock.heldCount()).isZero();
    }

    @Test
    void whenEveryUpstreamFallsSilentTimeMovesOnWithTheWallClockAfterAStep() {
        clock.report("a", T0 + 1_000, false, wall, keys);
        clock.report("a", T0 + 1_000, true, wall, keys);
        wall += STEP - 1;
        clock.wallTick(wall, keys);
        assertThat(keys.seen).isEmpty();
        wall += 25_001;
        clock.wallTick(wall, keys);
        // 1s + 35s of silence: the steps at 10, 20 and 30 run
        assertThat(keys.seen).containsExactly("step@10", "step@20", "step@30");
        assertThat(clock.watermark()).isEqualTo(T0 + 36_000);
    }

    @Test
    void notInLiveModeTheWallClockNeverMovesTime() {
        MonitorClock<String> replay = new MonitorClock<>(STEP, GRACE, 0, MAX_LAG, false);
        replay.report("a", T0 + 1_000, true, 0, keys);
        replay.wallTick(Long.MAX_VALUE / 2, keys);
        assertThat(keys.seen).isEmpty();
    }

    @Test
    void aRestoredClockReleasesWhatWasHeldWhenTheLaggingUpstreamCatchesUp() {
        clock.report("a", T0, false, wall, keys);
        clock.report("b", T0, false, wall, keys);
        clock.offer("k", "a@5", T0 + 5_000, wall, keys);
        clock.offer("k", "a@15", T0 + 15_000, wall, keys);
        clock.report("a", T0 + 15_000, false, wall, keys);

        MonitorClock<String> restarted = new MonitorClock<>(STEP, GRACE, IDLE, MAX_LAG, true);
        restarted.restore(clock.watermark(), clock.lastStep(), copy(clock.upstreams()), clock.held(), wall + 60_000);
        Recorder after = new Recorder();
        restarted.offer("k", "b@7", T0 + 7_000, wall + 60_000, after);
        restarted.report("b", T0 + 16_000, false, wall + 60_000, after);
        assertThat(after.seen).containsExactly("a@5", "b@7", "step@10", "a@15");
    }

    @Test
    void anUpstreamThatWasIdleWhenTheAppStoppedIsWaitedForAfterARestartUntilItsNewIngestReports() {
        // the input ended before the crash: both partitions had gone idle
        clock.report("a", T0 + 10_000, false, wall, keys);
        clock.report("b", T0 + 10_000, false, wall, keys);
        clock.report("a", T0 + 10_000, true, wall + 3_000, keys);
        clock.report("b", T0 + 10_000, true, wall + 3_000, keys);

        // after the restart partition a's task runs first and reads two minutes; b's task is still starting
        MonitorClock<String> restarted = new MonitorClock<>(STEP, GRACE, IDLE, MAX_LAG, true);
        long later = wall + 60_000;
        restarted.restore(clock.watermark(), clock.lastStep(), copy(clock.upstreams()), clock.held(), later);
        Recorder after = new Recorder();
        for (long t = T0 + 15_000; t <= T0 + 130_000; t += 5_000) {
            restarted.offer("k", "a@" + (t - T0) / 1000, t, later, after);
        }
        restarted.report("a", T0 + 130_000, false, later, after);
        // "idle" described the stopped run's ingest: b is waited for as any upstream that has yet to report
        assertThat(after.seen).isEmpty();
        assertThat(restarted.watermark()).isEqualTo(T0 + 10_000);

        restarted.offer("k", "b@12", T0 + 12_000, later + 1_000, after);
        restarted.report("b", T0 + 12_000, false, later + 1_000, after);
        assertThat(after.seen).containsExactly("b@12");
        assertThat(after.late).isEmpty();

        // and if b's task never comes back, only for the silent timeout
        restarted.wallTick(later + IDLE + 1_001, after);
        assertThat(restarted.watermark()).isEqualTo(T0 + 130_000);
    }

    @Test
    void heldRecordsRestoredAtOrBelowTheSavedWatermarkAreReleasedAgainFirstInEventTimeOrder() {
        clock.report("a", T0, false, wall, keys);
        clock.report("b", T0, false, wall, keys);
        clock.offer("k", "a@5", T0 + 5_000, wall, keys);
        clock.offer("k", "a@15", T0 + 15_000, wall, keys);
        clock.offer("j", "b@3", T0 + 3_000, wall, keys);
        List<MonitorClock.Held<String>> committed = clock.held();
        // released after that commit; the run stops before the keys' state reaches the changelog
        clock.report("a", T0 + 15_000, false, wall, keys);
        clock.report("b", T0 + 8_000, false, wall, keys);
        assertThat(keys.seen).containsExactly("b@3", "a@5");

        MonitorClock<String> restarted = new MonitorClock<>(STEP, GRACE, IDLE, MAX_LAG, true);
        restarted.restore(clock.watermark(), clock.lastStep(), copy(clock.upstreams()), committed, wall + 60_000);
        assertThat(restarted.watermark()).isEqualTo(T0 + 3_000 - 1);
        Recorder after = new Recorder();
        // read again from the uncommitted input, older than the saved watermark: not applied before what was held
        restarted.offer("k", "b@6", T0 + 6_000, wall + 60_000, after);
        assertThat(after.seen).isEmpty();
        restarted.report("b", T0 + 16_000, false, wall + 60_000, after);
        assertThat(after.seen).containsExactly("b@3", "a@5", "b@6", "step@10", "a@15");
        assertThat(after.late).isEmpty();
    }

    private static java.util.Map<String, Upstreams.Upstream> copy(Upstreams upstreams) {
        java.util.Map<String, Upstreams.Upstream> out = new java.util.LinkedHashMap<>();
        upstreams.table().forEach((id, u) -> {
            Upstreams.Upstream c = new Upstreams.Upstream();
            c.time = u.time;
            c.idle = u.idle;
            out.put(id, c);
        });
        return out;
    }

    /** Records what reaches the keys: record names, and steps as step@seconds after T0. */
    private static final class Recorder implements MonitorClock.Stage<String> {
        final List<String> seen = new ArrayList<>();
        final List<String> late = new ArrayList<>();

        @Override
        public void apply(String key, String event, long time, boolean isLate) {
            seen.add(event);
            if (isLate) {
                late.add(event);
            }
        }

        @Override
        public void step(long at) {
            seen.add("step@" + (at - T0) / 1000);
        }
    }
}
