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

    /** The same samples in a histogram that has never handed out a window. */
    private static SlidingHistogram replayed(List<long[]> samples) {
        SlidingHistogram h = new SlidingHistogram(60_000, 6);
        samples.forEach(s -> h.record(s[0], s[1]));
        return h;
    }
}
