package io.hcwatch.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * ALB health-check logs arriving as one object per load-balancer node every five minutes, minutes
 * after their events, beside a collector's checks read as they happen: the ingest side
 * ({@link UpstreamClock}) and the monitor side ({@link MonitorClock}) driven second by second of
 * wall time, with the event time of every record written out. With the source's delay the keys see
 * every record in event-time order and none late; without it, the second node's object is late.
 */
class BatchedDeliveryTest {

    private static final long T0 = 1_772_546_400_000L; // 14:00:00Z, a step boundary
    private static final long STEP = 10_000;
    private static final long GRACE = 30_000;
    private static final long IDLE = 2_000;
    private static final long SILENT = 30_000;
    private static final long MAX_LAG = 300_000;
    /** The batch period (5 minutes) and the longest delivery lag of an object after its period (3.5 minutes, node b's). */
    private static final long DELAY = 510_000;

    /** Objects by the wall time they arrive: node a's 14:00-14:05 at 14:07, node b's at 14:08:30, a's 14:05-14:10 at 14:12. */
    private static final Map<Long, List<Long>> OBJECTS = new TreeMap<>(Map.of(
            T0 + 420_000, checks(0, 300_000, 3_000),
            T0 + 510_000, checks(0, 300_000, 7_000),
            T0 + 720_000, checks(300_000, 600_000, 3_000)));

    @Test
    void withTheDelayEveryRecordReachesItsKeyInEventTimeOrderAndNoneIsLate() {
        Run run = run(DELAY);
        assertThat(run.late).isEmpty();
        assertThat(run.recordTimes).isSorted().hasSize(run.offered);
        // the watermark waits for the log partition, but by no more than its delay behind the collector
        // (whose newest record is up to one 10 s poll behind the wall)
        assertThat(run.maxLagBehindWall).isLessThanOrEqualTo(DELAY + 10_000);
        assertThat(run.steps).as("no step was skipped or repeated").isSorted().doesNotHaveDuplicates();
    }

    @Test
    void readAsItHappensTheSecondNodesObjectAndTheNextBatchAreLate() {
        Run run = run(0);
        assertThat(run.late).isNotEmpty();
    }

    @Test
    void withADelayShorterThanTheDeliveryLagTheSlowNodesObjectIsLate() {
        Run run = run(420_000);
        assertThat(run.late).isNotEmpty().allMatch(t -> t < T0 + 300_000);
    }

    private static List<Long> checks(long from, long to, long offset) {
        List<Long> out = new ArrayList<>();
        for (long t = from + offset; t < to; t += 10_000) {
            out.add(T0 + t);
        }
        return out;
    }

    private static Run run(long delay) {
        Run run = new Run();
        MonitorClock<Long> monitor = new MonitorClock<>(STEP, GRACE, SILENT, 0, MAX_LAG,
                id -> id.startsWith("alb-health") ? delay : 0, true);
        monitor.expect(List.of("health-0", "alb-health-0"), T0);
        UpstreamClock collector = new UpstreamClock(IDLE, 0, 0);
        UpstreamClock logs = new UpstreamClock(IDLE, 0, delay);
        for (long wall = T0; wall <= T0 + 1_500_000; wall += 1_000) {
            if ((wall - T0) % 10_000 == 0) {
                collector.read(wall, wall);
                monitor.offer("tg", wall, wall, wall, run);
                run.offered++;
            }
            report(monitor, "health-0", collector.report(Long.MAX_VALUE, wall), wall, run);
            for (long t : OBJECTS.getOrDefault(wall, List.of())) {
                logs.read(t, wall);
                monitor.offer("tg", t, t, wall, run);
                run.offered++;
            }
            report(monitor, "alb-health-0", logs.report(Long.MAX_VALUE, wall), wall, run);
            monitor.wallTick(wall, run);
            if (monitor.watermark() != Long.MIN_VALUE) {
                run.maxLagBehindWall = Math.max(run.maxLagBehindWall, wall - monitor.watermark());
            }
        }
        return run;
    }

    private static void report(MonitorClock<Long> monitor, String id, UpstreamClock.Report r, long wall, Run run) {
        if (r != null) {
            monitor.report(id, r.time(), r.idle(), wall, run);
        }
    }

    private static final class Run implements MonitorClock.Stage<Long> {
        final List<Long> recordTimes = new ArrayList<>();
        final List<Long> late = new ArrayList<>();
        final List<Long> steps = new ArrayList<>();
        long maxLagBehindWall;
        int offered;

        @Override
        public void apply(String key, Long event, long time, boolean isLate) {
            recordTimes.add(time);
            if (isLate) {
                late.add(time);
            }
        }

        @Override
        public void step(long at) {
            steps.add(at);
        }
    }
}
