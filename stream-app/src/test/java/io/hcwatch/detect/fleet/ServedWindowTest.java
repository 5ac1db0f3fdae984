package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.detect.fleet.ServedWindow.Totals;
import io.hcwatch.traffic.LatencySketch;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ServedWindowTest {

    private static final long T0 = 1_772_548_200_000L;
    private static final long WINDOW = 60_000;
    private static final long STEP = 10_000;

    private record Count(String target, long ts, long requests, long succeeded, long[] latencies) {
    }

    /** Judged on every summary, as gray_failure is: the kept window against one merged from the same counts afresh. */
    @Test
    void aWindowKeptBetweenSummariesEqualsOneMergedFromScratch() {
        ServedWindow kept = new ServedWindow(WINDOW, STEP);
        List<Count> counts = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(5);
        long now = T0;
        for (int i = 0; i < 2_000; i++) {
            now += random.nextLong(0, 1_500);
            // some counts arrive late, a few of them too late for their slot
            long ts = now - (random.nextInt(8) == 0 ? random.nextLong(0, 80_000) : 0);
            long requests = random.nextLong(0, 20);
            long[] latencies = random.longs(random.nextInt(0, (int) requests + 1), 1, 3_000).toArray();
            Count c = new Count("t" + random.nextInt(3), ts, requests, random.nextLong(0, requests + 1), latencies);
            add(kept, c);
            counts.add(c);
            // read as gray_failure reads on every summary: a percentile remembered of a window must not outlive it
            for (String target : List.of("t0", "t1", "t2")) {
                kept.totals(target, now, WINDOW).latencyAt(99);
                kept.totals(target, now, WINDOW).latencyAt(50);
            }
            if (i % 5 == 0) {
                ServedWindow fresh = new ServedWindow(WINDOW, STEP);
                counts.forEach(x -> add(fresh, x));
                for (String target : List.of("t0", "t1", "t2")) {
                    assertSame(kept.totals(target, now, WINDOW), fresh.totals(target, now, WINDOW), target + " at " + i);
                }
            }
        }
    }

    /** Counts and latencies of sums and differences, merged only when a latency is read, are those of histograms merged at once. */
    @Test
    void sumsAndDifferencesGiveTheirPartsCountsAndLatencies() {
        Totals a = totals(100, 5, 10, 20, 30, 400);
        Totals b = totals(50, 0, 15, 15, 2_000);
        Totals c = totals(10, 10);
        Totals all = Totals.sum(List.of(a, b, c));
        assertThat(all.requests()).isEqualTo(160);
        assertThat(all.failed()).isEqualTo(15);
        assertThat(all.samples()).isEqualTo(7);
        Totals rest = all.minus(Totals.sum(List.of(a, c)));
        assertThat(rest.requests()).isEqualTo(50);
        assertThat(rest.failedShare()).isZero();
        assertThat(rest.samples()).isEqualTo(3);
        assertThat(rest.latencyAt(99)).isEqualTo(b.latencyAt(99));
        assertThat(rest.latencyAt(50)).isEqualTo(b.latencyAt(50));
        assertThat(all.latency().getTotalCount()).isEqualTo(7);
        assertThat(all.latencyAt(99)).isEqualTo(b.latencyAt(99));
        assertThat(c.latencyAt(50)).isNaN();
        assertThat(all.minus(all).latencyAt(50)).isNaN();
    }

    private static Totals totals(long requests, long failed, long... latencies) {
        ServedWindow w = new ServedWindow(WINDOW, STEP);
        w.add("t", T0, requests, requests - failed, sketch(latencies));
        return w.totals("t", T0 + 1, WINDOW);
    }

    private static void add(ServedWindow w, Count c) {
        w.add(c.target(), c.ts(), c.requests(), c.succeeded(), sketch(c.latencies()));
    }

    private static Histogram sketch(long[] latencies) {
        if (latencies.length == 0) {
            return null;
        }
        Histogram h = LatencySketch.create();
        for (long v : latencies) {
            LatencySketch.record(h, v);
        }
        return h;
    }

    private static void assertSame(Totals kept, Totals fresh, String what) {
        assertThat(kept.requests()).as(what).isEqualTo(fresh.requests());
        assertThat(kept.failed()).as(what).isEqualTo(fresh.failed());
        assertThat(kept.samples()).as(what).isEqualTo(fresh.samples());
        assertThat(kept.latency().getTotalCount()).as(what).isEqualTo(fresh.latency().getTotalCount());
        assertThat(kept.latency().getMaxValue()).as(what).isEqualTo(fresh.latency().getMaxValue());
        for (double p : new double[] {1, 50, 90, 99, 100}) {
            // boxed: NaN (nothing logged) equals NaN
            assertThat(Double.valueOf(kept.latencyAt(p))).as(what + " p" + p).isEqualTo(Double.valueOf(fresh.latencyAt(p)));
        }
    }
}
