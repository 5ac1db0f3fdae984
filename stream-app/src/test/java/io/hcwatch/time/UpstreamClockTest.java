package io.hcwatch.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What an ingest reports about its partition, with explicit event and wall times. */
class UpstreamClockTest {

    private static final long T0 = 1_772_546_400_000L;
    private static final long IDLE = 10_000;
    private static final long NOTHING_HELD = Long.MAX_VALUE;

    private final UpstreamClock clock = new UpstreamClock(IDLE);

    @Test
    void nothingIsReportedBeforeTheFirstRecord() {
        assertThat(clock.report(NOTHING_HELD, 0)).isNull();
    }

    @Test
    void aPartitionReadingOnlyJunkSoFarAsksToBeWaitedFor() {
        clock.readUntimed(0);
        assertThat(clock.report(NOTHING_HELD, 0)).isEqualTo(new UpstreamClock.Report(Long.MIN_VALUE, false));
        clock.read(T0, 50);
        assertThat(clock.report(NOTHING_HELD, 100)).isEqualTo(new UpstreamClock.Report(T0, false));
    }

    @Test
    void progressStopsShortOfTheOldestRecordStillHeld() {
        clock.read(T0 + 2_500, 0);
        assertThat(clock.report(T0 + 2_000, 0)).isEqualTo(new UpstreamClock.Report(T0 + 1_999, false));
        // once the held second is sent on, everything read so far is covered
        assertThat(clock.report(NOTHING_HELD, 50)).isEqualTo(new UpstreamClock.Report(T0 + 2_500, false));
    }

    @Test
    void progressNeverGoesBackWhenAnOlderRecordArrivesLate() {
        clock.read(T0 + 5_000, 0);
        clock.report(NOTHING_HELD, 0);
        clock.read(T0 + 1_000, 10);
        assertThat(clock.report(T0 + 1_000, 10)).isNull();
    }

    @Test
    void anUpstreamHoldingNothingAndReadingNothingForTheIdleTimeoutIsIdle() {
        clock.read(T0, 0);
        clock.report(NOTHING_HELD, 0);
        assertThat(clock.report(NOTHING_HELD, IDLE - 1)).as("still active: a repeat").isEqualTo(new UpstreamClock.Report(T0, false));
        assertThat(clock.report(NOTHING_HELD, IDLE)).isEqualTo(new UpstreamClock.Report(T0, true));
        assertThat(clock.report(NOTHING_HELD, IDLE * 5)).as("said once").isNull();
    }

    @Test
    void aThreadStarvedOfCpuForLongerThanTheIdleTimeoutDoesNotTakeItsPartitionForQuiet() {
        UpstreamClock ticking = new UpstreamClock(IDLE, 20);
        ticking.read(T0, 0);
        ticking.report(NOTHING_HELD, 0);
        // the flush that should have run every 100ms runs once, 30s later
        ticking.tick();
        UpstreamClock.Report late = ticking.report(NOTHING_HELD, 30_000);
        assertThat(late == null || !late.idle()).isTrue();
        for (int i = 0; i < 19; i++) {
            ticking.tick();
        }
        assertThat(ticking.report(NOTHING_HELD, 32_000)).isEqualTo(new UpstreamClock.Report(T0, true));
    }

    @Test
    void aPartitionKnownToLagIsNeverIdle() {
        clock.read(T0, 0);
        clock.report(NOTHING_HELD, 0);
        UpstreamClock.Report r = clock.report(NOTHING_HELD, IDLE * 10, true);
        assertThat(r == null || !r.idle()).isTrue();
    }

    @Test
    void recordsThatDoNotParseKeepAPartitionFromLookingIdle() {
        clock.read(T0, 0);
        clock.report(NOTHING_HELD, 0);
        for (long wall = 1_000; wall <= 3 * IDLE; wall += 1_000) {
            clock.readUntimed(wall);
            UpstreamClock.Report r = clock.report(NOTHING_HELD, wall);
            assertThat(r == null || !r.idle()).as("at %d", wall).isTrue();
        }
    }

    @Test
    void anActiveUpstreamWithNothingNewRepeatsItsReportEveryHalfIdleTimeout() {
        clock.read(T0, 0);
        clock.report(NOTHING_HELD, 0);
        clock.readUntimed(IDLE / 2 - 1);
        assertThat(clock.report(NOTHING_HELD, IDLE / 2 - 1)).isNull();
        clock.readUntimed(IDLE / 2);
        assertThat(clock.report(NOTHING_HELD, IDLE / 2)).isEqualTo(new UpstreamClock.Report(T0, false));
    }

    @Test
    void inReplayAnUpstreamHoldingNothingIsIdleAtOnceAndNeverRepeatsItself() {
        UpstreamClock replay = new UpstreamClock(0);
        replay.read(T0, T0);
        assertThat(replay.report(T0, T0)).isEqualTo(new UpstreamClock.Report(T0 - 1, false));
        assertThat(replay.report(NOTHING_HELD, T0)).isEqualTo(new UpstreamClock.Report(T0, true));
        assertThat(replay.report(NOTHING_HELD, T0 + 60_000)).isNull();
    }

    private static final long DELAY = 420_000;

    @Test
    void aBatchedSourceVouchesForItsNewestRecordLessItsDelayWhileItReads() {
        UpstreamClock batched = new UpstreamClock(IDLE, 0, DELAY);
        // one node's object of 10:00-10:05 read at once: another node's object of the same minutes may follow
        batched.read(T0 + 299_000, 0);
        assertThat(batched.report(NOTHING_HELD, 0)).isEqualTo(new UpstreamClock.Report(T0 + 299_000 - DELAY, false));
        batched.read(T0 + 299_500, 10);
        assertThat(batched.report(NOTHING_HELD, 10)).isEqualTo(new UpstreamClock.Report(T0 + 299_500 - DELAY, false));
    }

    @Test
    void whileQuietABatchedSourceCatchesUpWithTheWallClockInWholeSecondsAndIsIdleOnlyAfterItsDelayAndTheIdleTimeout() {
        UpstreamClock batched = new UpstreamClock(IDLE, 0, DELAY);
        batched.read(T0 + 299_000, 0);
        batched.report(NOTHING_HELD, 0);
        assertThat(batched.report(NOTHING_HELD, 90_500)).isEqualTo(new UpstreamClock.Report(T0 + 299_000 - DELAY + 90_000, false));
        assertThat(batched.report(NOTHING_HELD, 90_900)).as("same second, no heartbeat due yet").isNull();
        // a whole delay of quiet: nothing older than the newest record can still come, but the next batch can
        assertThat(batched.report(NOTHING_HELD, DELAY)).isEqualTo(new UpstreamClock.Report(T0 + 299_000, false));
        assertThat(batched.report(NOTHING_HELD, DELAY + IDLE - 1)).isEqualTo(new UpstreamClock.Report(T0 + 299_000, false));
        assertThat(batched.report(NOTHING_HELD, DELAY + IDLE)).isEqualTo(new UpstreamClock.Report(T0 + 299_000, true));
    }

    @Test
    void aBatchedSourceWithNothingReadYetAsksToBeWaitedForItsFirstBatchForItsDelay() {
        UpstreamClock batched = new UpstreamClock(IDLE, 0, DELAY);
        assertThat(batched.report(NOTHING_HELD, 0)).isEqualTo(new UpstreamClock.Report(Long.MIN_VALUE, false));
        assertThat(batched.report(NOTHING_HELD, DELAY + IDLE - 1)).as("heartbeat").isEqualTo(new UpstreamClock.Report(Long.MIN_VALUE, false));
        assertThat(batched.report(NOTHING_HELD, DELAY + IDLE)).isEqualTo(new UpstreamClock.Report(Long.MIN_VALUE, true));
    }

    @Test
    void theNextBatchStartsAFreshDelayButProgressNeverGoesBack() {
        UpstreamClock batched = new UpstreamClock(IDLE, 0, DELAY);
        batched.read(T0 + 299_000, 0);
        batched.report(NOTHING_HELD, 0);
        batched.report(NOTHING_HELD, 200_000);
        // the next object (10:05-10:10) arrives 5 minutes after the first
        batched.read(T0 + 599_000, 300_000);
        assertThat(batched.report(NOTHING_HELD, 300_000)).isEqualTo(new UpstreamClock.Report(T0 + 599_000 - DELAY, false));
        UpstreamClock early = new UpstreamClock(IDLE, 0, DELAY);
        early.read(T0 + 299_000, 0);
        early.report(NOTHING_HELD, 0);
        early.report(NOTHING_HELD, 400_000);
        // a small object right after: its newest less the delay is behind what was vouched for already
        early.read(T0 + 301_000, 400_000);
        assertThat(early.report(NOTHING_HELD, 400_000)).as("unchanged, no heartbeat due").isNull();
    }
}
