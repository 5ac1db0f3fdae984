package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SlidingHistogramTest {

    private static final long T0 = 1_772_548_200_000L;

    @Test
    void aWindowKeptCurrentBetweenRecordsEqualsOneMergedFromScratch() {
        SlidingHistogram sliding = new SlidingHistogram(60_000, 6);
        List<long[]> samples = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(3);
        long now = T0;
        for (int i = 0; i < 3_000; i++) {
            now += random.nextLong(0, 400);
            // some samples arrive late, within the grace period
            long ts = now - (random.nextInt(10) == 0 ? random.nextLong(0, 30_000) : 0);
            long value = random.nextLong(1, 5_000);
            sliding.record(ts, value);
            samples.add(new long[] {ts, value});
            if (i % 7 == 0) {
                Histogram kept = sliding.window(now, 60_000);
                Histogram fresh = replayed(samples).window(now, 60_000);
                assertThat(kept.getTotalCount()).isEqualTo(fresh.getTotalCount());
                assertThat(kept.getValueAtPercentile(50)).isEqualTo(fresh.getValueAtPercentile(50));
                assertThat(kept.getValueAtPercentile(99)).isEqualTo(fresh.getValueAtPercentile(99));
                assertThat(kept.getMaxValue()).isEqualTo(fresh.getMaxValue());
            }
        }
    }

    @Test
    void aSampleForASlotOutsideTheWindowLeavesTheWindowAlone() {
        SlidingHistogram sliding = new SlidingHistogram(60_000, 6);
        sliding.record(T0, 100);
        sliding.record(T0 + 70_000, 200);
        assertThat(sliding.window(T0 + 70_000, 60_000).getTotalCount()).isEqualTo(1);
        sliding.record(T0 + 1_000, 900);
        assertThat(sliding.window(T0 + 70_000, 60_000).getTotalCount()).isEqualTo(1);
        sliding.record(T0 + 69_000, 300);
        assertThat(sliding.window(T0 + 70_000, 60_000).getTotalCount()).isEqualTo(2);
    }

    @Test
    void slotsSizedByWhatTheyHoldGiveTheQuantilesOfAFullRangeHistogram() {
        SplittableRandom random = new SplittableRandom(11);
        for (int n : new int[] {1, 5, SlidingHistogram.RAW_LIMIT, SlidingHistogram.RAW_LIMIT + 1, 2_000}) {
            SlidingHistogram sliding = new SlidingHistogram(60_000, 6);
            Histogram oracle = new Histogram(SlidingHistogram.HIGHEST_MS, SlidingHistogram.DIGITS);
            for (int i = 0; i < n; i++) {
                long value = random.nextInt(4) == 0 ? random.nextLong(1_000, 900_000) : random.nextLong(0, 300);
                sliding.record(T0 + i * 50_000L / n, value);
                oracle.recordValue(Math.min(value, SlidingHistogram.HIGHEST_MS));
            }
            Histogram window = sliding.window(T0 + 50_000, 60_000);
            assertThat(window.getTotalCount()).as("n=%d", n).isEqualTo(n);
            for (double p : new double[] {50, 90, 99, 100}) {
                assertThat(window.getValueAtPercentile(p)).as("p%s of %d", p, n).isEqualTo(oracle.getValueAtPercentile(p));
            }
            // and after the changelog: encoded and decoded, the same window
            SlidingHistogram restored = new SlidingHistogram();
            restored.slotMillis = sliding.slotMillis;
            restored.slotStart = sliding.slotStart.clone();
            restored.decodeSlots(sliding.encodedSlots());
            Histogram again = restored.window(T0 + 50_000, 60_000);
            assertThat(again.getTotalCount()).isEqualTo(n);
            assertThat(again.getValueAtPercentile(99)).isEqualTo(oracle.getValueAtPercentile(99));
            assertThat(again.getMaxValue()).isEqualTo(oracle.getMaxValue());
        }
    }

    @Test
    void slotsOutOfTheWindowAreDroppedAndAnEmptyWindowCostsNothing() {
        SlidingHistogram sliding = new SlidingHistogram(60_000, 6);
        sliding.record(T0, 100);
        sliding.record(T0 + 30_000, 200);
        sliding.expire(T0 + 69_999);
        // the slot of T0 (to T0 + 10 s) still overlaps the window ending at T0 + 69.999 s: kept
        assertThat(sliding.window(T0 + 69_999, 60_000).getTotalCount()).isEqualTo(2);
        // the slot of T0 ended at T0 + 10 s, a whole window before T0 + 70 s: gone
        sliding.expire(T0 + 70_000);
        assertThat(sliding.encodedSlots().stream().filter(java.util.Objects::nonNull)).hasSize(1);
        sliding.expire(T0 + 100_000);
        assertThat(sliding.encodedSlots()).hasSize(7).containsOnlyNulls();
        assertThat(sliding.slotStart).hasSize(7).containsOnly(Long.MIN_VALUE);
        assertThat(sliding.window(T0 + 100_000, 60_000).getTotalCount()).isZero();
        // another histogram that holds nothing shares the empty starts: recording here must not touch them
        SlidingHistogram other = new SlidingHistogram(60_000, 6);
        sliding.record(T0 + 100_000, 300);
        assertThat(sliding.window(T0 + 100_000, 60_000).getTotalCount()).isEqualTo(1);
        assertThat(other.slotStart).containsOnly(Long.MIN_VALUE);
        assertThat(other.window(T0 + 100_000, 60_000).getTotalCount()).isZero();
    }

    /** The same samples in a histogram that has never handed out a window. */
    private static SlidingHistogram replayed(List<long[]> samples) {
        SlidingHistogram h = new SlidingHistogram(60_000, 6);
        samples.forEach(s -> h.record(s[0], s[1]));
        return h;
    }
}
