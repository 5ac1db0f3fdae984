package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * "Arrives in batches" with explicit times: a window of 5 minutes, a threshold of 2 minutes, at
 * least 20 records. The expected medians are counted by hand from the lags the records are given.
 */
class ArrivalLagTest {

    private static final long T0 = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    private static final long S = 1_000;
    private static final long MIN = 60_000;

    private final ArrivalLag lag = new ArrivalLag(Duration.ofMinutes(5), Duration.ofMinutes(2), 20);

    /** One ALB log object: a line every second of the 5 minutes ending at {@code periodEnd}, all arriving at {@code at}. */
    private void object(long periodEnd, long at) {
        for (long e = periodEnd - 300 * S; e < periodEnd; e += S) {
            lag.arrived(e, at);
        }
    }

    @Test
    void fiveMinuteObjectsAMinuteAfterTheirPeriodAreBatchedOnceReadForAWholeWindow() {
        object(T0, T0 + MIN);
        // lags 61 s .. 360 s, 300 lines: the 150th smallest is 210 s; read for no time yet, so not judged
        assertThat(lag.judge(T0 + MIN)).isEqualTo(new ArrivalLag.Verdict(210 * S, 360 * S, 300, false));
        object(T0 + 5 * MIN, T0 + 6 * MIN);
        // read since T0+1m: at T0+6m a whole window; both objects in it, the same lags twice
        assertThat(lag.judge(T0 + 6 * MIN)).isEqualTo(new ArrivalLag.Verdict(210 * S, 360 * S, 600, true));
    }

    @Test
    void aSourceReadAsItHappensIsNot() {
        // a record every second for ten minutes, each 1 to 3 s after its event
        for (long e = T0; e < T0 + 10 * MIN; e += S) {
            lag.arrived(e, e + S + (e / S % 3) * S);
        }
        ArrivalLag.Verdict v = lag.judge(T0 + 10 * MIN);
        assertThat(v.batched()).isFalse();
        assertThat(v.medianMillis()).isEqualTo(2 * S);
        assertThat(v.maxMillis()).isEqualTo(3 * S);
        // the window holds the minutes 10:05 to 10:09 (arrivals up to 10:10:02 count in 10:10): 5 minutes of 60 records and 2 more
        assertThat(v.records()).isEqualTo(302);
    }

    @Test
    void aBacklogReadAfterDowntimeIsNotLateInputWhenItsRecordsCarryTheirArrival() {
        ArrivalLag readAt = new ArrivalLag(Duration.ofMinutes(5), Duration.ofMinutes(2), 20);
        long downUntil = T0 + 30 * MIN;
        for (long e = T0; e < T0 + 10 * MIN; e += S) {
            // produced a second after its event; read 26 to 30 minutes later by a consumer catching up for 6 minutes
            long wall = downUntil + (e - T0) * 6 / 10;
            lag.arrived(e, ArrivalLag.arrival(e + S, wall));
            readAt.arrived(e, wall);
        }
        long caughtUp = downUntil + 6 * MIN;
        // the records arrived in time, 20 minutes and more before the window: nothing to judge
        assertThat(lag.judge(caughtUp)).isEqualTo(new ArrivalLag.Verdict(-1, -1, 0, false));
        // counted when read, the same records would look 26 to 30 minutes late
        assertThat(readAt.judge(caughtUp).batched()).isTrue();
    }

    @Test
    void arrivalIsTheKafkaTimestampUnlessThereIsNoneOrItLiesAhead() {
        assertThat(ArrivalLag.arrival(T0, T0 + MIN)).isEqualTo(T0);
        assertThat(ArrivalLag.arrival(-1, T0 + MIN)).isEqualTo(T0 + MIN);
        assertThat(ArrivalLag.arrival(T0 + 2 * MIN, T0 + MIN)).isEqualTo(T0 + MIN);
    }

    private void inTime(long from, long to) {
        for (long e = from; e < to; e += S) {
            lag.arrived(e, e + S);
        }
    }

    @Test
    void oneLateBurstAmongRecordsInTimeIsNotBatchedAndLeavesTheWindow() {
        // a shipper that was stuck delivers 5 minutes at once (lags 181 .. 480 s), then keeps up (1 s)
        object(T0, T0 + 3 * MIN);
        inTime(T0 + 3 * MIN, T0 + 8 * MIN);
        // 300 lines of the burst and 300 in time: the 300th smallest is 1 s
        assertThat(lag.judge(T0 + 8 * MIN)).isEqualTo(new ArrivalLag.Verdict(S, 480 * S, 600, false));
        inTime(T0 + 8 * MIN, T0 + 9 * MIN);
        // the burst's minute (10:03) has left the window (10:04 .. 10:09)
        ArrivalLag.Verdict atNine = lag.judge(T0 + 9 * MIN);
        assertThat(atNine.maxMillis()).isEqualTo(S);
        assertThat(atNine.batched()).isFalse();
    }

    @Test
    void tooFewRecordsSayNothing() {
        for (int i = 0; i < 19; i++) {
            lag.arrived(T0 + i * S, T0 + 10 * MIN);
        }
        ArrivalLag.Verdict v = lag.judge(T0 + 15 * MIN);
        assertThat(v.records()).isEqualTo(19);
        assertThat(v.batched()).isFalse();
        lag.arrived(T0 + 19 * S, T0 + 15 * MIN);
        assertThat(lag.judge(T0 + 15 * MIN).batched()).isTrue();
    }
}
