package io.hcwatch.detect.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The history sized by what it holds answers every query as a plain list of the last
 * {@code capacity} steps does (the oracle below), while empty runs and silence keep it small.
 */
class StepHistoryTest {

    private static final long T0 = 1_772_548_200_000L;
    private static final long STEP = 10_000;
    private static final int CAPACITY = 50;

    private record Point(long at, double p50, double p99, int healthy, double rate, int known) {
    }

    @Test
    void answersAsTheLastCapacityStepsDoThroughBusyEmptyAndBusyAgain() {
        SplittableRandom random = new SplittableRandom(5);
        StepHistory history = StepHistory.empty();
        List<Point> all = new ArrayList<>();
        long at = T0;
        for (int i = 0; i < 2_000; i++) {
            at += STEP;
            // phases: busy, empty (no targets, no traffic, no latency), a few busy steps, empty again...
            boolean empty = (i / 120) % 2 == 1 && i % 120 != 60;
            Point p = empty ? new Point(at, Double.NaN, Double.NaN, 0, 0, 0)
                    : new Point(at, random.nextInt(5) == 0 ? Double.NaN : random.nextInt(100), random.nextInt(5) == 0
                    ? Double.NaN : random.nextInt(1_000), random.nextInt(5), random.nextInt(3) * 10.0, random.nextInt(1, 6));
            history.add(p.at, p.p50, p.p99, p.healthy, p.rate, p.known, CAPACITY, STEP);
            all.add(p);
            List<Point> ring = all.subList(Math.max(0, all.size() - CAPACITY), all.size());
            for (long back : new long[] {0, STEP, 5 * STEP, 30 * STEP, 49 * STEP}) {
                long ts = at - back;
                assertThat(history.knownAt(ts)).as("step %d, known at -%d", i, back).isEqualTo(knownAt(ring, ts));
                int index = history.indexAtOrBefore(ts);
                Point oracle = latestAtOrBefore(ring, ts);
                if (oracle == null) {
                    assertThat(index).isEqualTo(-1);
                } else {
                    assertThat(history.healthy[index]).isEqualTo(oracle.healthy);
                    assertThat((double) history.requestRate[index]).isEqualTo(oracle.rate);
                    assertThat(Double.compare(history.p50[index], oracle.p50)).isZero();
                }
                assertThat(Double.compare(history.peakP99(ts - 20 * STEP, ts), peak(ring, ts - 20 * STEP, ts))).isZero();
            }
            assertThat(Double.compare(history.p99SlopePerSecond(at - 30 * STEP, at), slope(ring, at - 30 * STEP, at)))
                    .as("slope at step %d", i).isZero();
        }
    }

    @Test
    void aSilentTargetGroupShrinksToAFewEntries() {
        StepHistory history = StepHistory.empty();
        long at = T0;
        for (int i = 0; i < 200; i++) {
            at += STEP;
            history.add(at, 10, 20, 3, 5, 3, 400, STEP);
        }
        assertThat(history.at.length).isGreaterThanOrEqualTo(200);
        for (int i = 0; i < 500; i++) {
            at += STEP;
            history.add(at, Double.NaN, Double.NaN, 0, 0, 0, 400, STEP);
        }
        assertThat(history.size).isEqualTo(1);
        assertThat(history.at.length).isLessThanOrEqualTo(8);
        assertThat(history.knownAt(at)).isZero();
    }

    private static Point latestAtOrBefore(List<Point> ring, long ts) {
        Point best = null;
        for (Point p : ring) {
            if (p.at <= ts && (best == null || p.at > best.at)) {
                best = p;
            }
        }
        return best;
    }

    private static int knownAt(List<Point> ring, long ts) {
        Point p = latestAtOrBefore(ring, ts);
        return p == null ? -1 : p.known;
    }

    private static double peak(List<Point> ring, long from, long to) {
        double best = Double.NaN;
        for (Point p : ring) {
            if (p.at >= from && p.at <= to && !Double.isNaN(p.p99) && (Double.isNaN(best) || p.p99 > best)) {
                best = p.p99;
            }
        }
        return best;
    }

    private static double slope(List<Point> ring, long from, long to) {
        int n = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Point p : ring) {
            if (p.at >= from && p.at <= to && !Double.isNaN(p.p99)) {
                double x = (p.at - from) / 1000.0;
                n++;
                sx += x;
                sy += p.p99;
                sxx += x * x;
                sxy += x * p.p99;
            }
        }
        double d = n * sxx - sx * sx;
        return n < 3 || d == 0 ? Double.NaN : (n * sxy - sx * sy) / d;
    }
}
