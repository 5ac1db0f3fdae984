package io.hcwatch.perf;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A fleet at scale, replayed in-process through the real processors: T targets in G target groups,
 * each target checked every 10 s (JSON health-check results), plus the access-log mix of
 * {@link BenchWorkload} (ALB access and health-check logs, HAProxy) at a given rate. The monitors'
 * stores are committed every {@code commitMillis} of event time, encoding what changed as Kafka
 * Streams would for the changelog. Prints records/s, heap after GC, what the stores' compacted
 * changelogs hold, and the changelog bytes written against the input's own bytes (by store and part
 * of a key), and how long the commits held the thread; with {@code restore}, the time to rebuild
 * the stores from their changelogs; with {@code digest}, the SHA-256 of every changelog write in
 * order (an encoding's change must keep it).
 */
public final class FleetScaleBench {

    /** When each target's checks arrive within the check interval. */
    public enum Checks {
        /** A target group's targets at one instant, group after group: what {@code collect alb}'s polls of target health give. */
        polled,
        /**
         * Each target at its own phase, so every target group gets a check every {@code interval / targets per group}:
         * what ALB health-check logs and HAProxy's own checks give, and all a fleet this large can send
         * (ELBv2's API budget polls a few target groups a second).
         */
        spread
    }

    private FleetScaleBench() {
    }

    public static void run(int groups, int targets, int accessPerSecond, int minutes, long commitMillis, boolean restore,
            boolean digest, Checks checks, PrintStream out) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://fleet-scale-bench");
        MonitorChangelogs changelog = new MonitorChangelogs(digest);
        List<Alert> alerts = new ArrayList<>();
        long[] dead = {0};
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), Settings.defaults(),
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                alerts::add, d -> dead[0]++, changelog);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int perGroup = Math.max(1, targets / groups);
        int checksPerSecond = groups * perGroup / 10;
        long seconds = minutes * 60L;
        out.printf("fleet-scale benchmark: %,d targets in %,d target groups checked every 10 s (%,d checks/s, %s) + %,d access-log"
                        + " lines/s, %d min of event time, commit every %d ms; max heap %d MiB%n", groups * perGroup, groups,
                checksPerSecond, checks, accessPerSecond, minutes, commitMillis, memory.getHeapMemoryUsage().getMax() >> 20);
        long start = BenchWorkload.T0;
        long[] fed = {0};
        long[] inputBytes = {0};
        long[] nextCheck = {0};
        long[] nextCommit = {start + commitMillis};
        long[] nextReport = {start + 5 * 60_000L};
        long[] gcNanos = {0};
        long[] peakHeap = {0};
        long[] changelogAtReport = {0};
        Histogram commits = new Histogram(3);
        long[] commitNanos = {0};
        long started = System.nanoTime();
        long totalChecks = checksPerSecond * seconds;
        new BenchWorkload(17, accessPerSecond, false).generate(accessPerSecond * seconds, start, line -> {
            long t = line.eventTime();
            // checks up to this line's time: check k of the run goes to target k mod T, at k / rate seconds
            while (nextCheck[0] < totalChecks && start + nextCheck[0] * 1000 / checksPerSecond <= t) {
                long k = nextCheck[0]++;
                long ts = start + k * 1000 / checksPerSecond;
                int target = switch (checks) {
                    case polled -> (int) (k % ((long) groups * perGroup));
                    case spread -> (int) ((k % groups) * perGroup + (k / groups) % perGroup);
                };
                byte[] check = check(target / perGroup, target % perGroup, ts);
                inputBytes[0] += check.length;
                pipeline.feed(Source.HEALTH, check, ts, "bench", fed[0]++);
            }
            inputBytes[0] += line.value().length;
            pipeline.feed(line.source(), line.value(), t, "bench", fed[0]++);
            while (t >= nextCommit[0]) {
                long c = System.nanoTime();
                pipeline.commit();
                long took = System.nanoTime() - c;
                commitNanos[0] += took;
                commits.recordValue(Math.max(1, took / 1000));
                nextCommit[0] += commitMillis;
            }
            if (t >= nextReport[0]) {
                long g = System.nanoTime();
                System.gc();
                long used = memory.getHeapMemoryUsage().getUsed();
                peakHeap[0] = Math.max(peakHeap[0], used);
                gcNanos[0] += System.nanoTime() - g;
                long bytes = changelog.total();
                out.printf("  %3d min: %,12d records, heap after GC %5d MiB, changelog %,8.0f KiB/s over the last 5 min%n",
                        (t - start) / 60_000, fed[0], used >> 20, (bytes - changelogAtReport[0]) / 300.0 / 1024);
                changelogAtReport[0] = bytes;
                nextReport[0] += 5 * 60_000L;
            }
        });
        pipeline.finish();
        pipeline.commit();
        double wall = (System.nanoTime() - started - gcNanos[0]) / 1e9;
        System.gc();
        long heap = memory.getHeapMemoryUsage().getUsed();
        peakHeap[0] = Math.max(peakHeap[0], heap);
        out.printf("records %,d in %.0f s: %,.0f records/s (one thread; GC for the samples excluded); heap after GC %d MiB"
                        + " (peak %d MiB)%n", fed[0], wall, fed[0] / wall, heap >> 20, peakHeap[0] >> 20);
        long[] fleet = changelog.held(TopologyFactory.FLEET_STORE);
        long[] host = changelog.held(TopologyFactory.HOST_STORE);
        long[] flood = changelog.held(TopologyFactory.FLOOD_STORE);
        out.printf("commits %,d: %.1f s in all (%.0f%% of the run), each held the thread p50 %.1f ms, p99 %.1f ms, longest %.1f ms%n",
                commits.getTotalCount(), commitNanos[0] / 1e9, 100 * commitNanos[0] / 1e9 / wall,
                commits.getValueAtPercentile(50) / 1e3,
                commits.getValueAtPercentile(99) / 1e3, commits.getMaxValue() / 1e3);
        out.printf("stores (what the changelogs hold after compaction): fleet %,d keys %,d KiB, host %,d keys %,d KiB,"
                        + " flood %,d keys %,d KiB%n", fleet[0], fleet[1] >> 10, host[0], host[1] >> 10, flood[0], flood[1] >> 10);
        out.printf("changelog written: %,d MiB, %,.0f KiB per second of event time; alerts %d; dead letters %d%n",
                changelog.total() >> 20, changelog.total() / (double) seconds / 1024, alerts.size(), dead[0]);
        changelog.byPart().forEach((part, sum) -> out.printf("  %-24s %,10.1f KiB/s %,9.0f writes/s %,7.0f B/write%n", part,
                sum[0] / (double) seconds / 1024, sum[1] / (double) seconds, sum[0] / (double) Math.max(1, sum[1])));
        out.printf("input %,d MiB, %,.0f KiB per second of event time; changelog/input %.3f%n", inputBytes[0] >> 20,
                inputBytes[0] / (double) seconds / 1024, changelog.total() / (double) inputBytes[0]);
        if (digest) {
            out.printf("changelog sha-256 %s%n", changelog.digest());
        }
        if (restore) {
            for (MonitorChangelogs.Restore r : changelog.restore()) {
                out.printf("restore %-12s %,9d keys from %,10d changelog entries (%,9d KiB) in %6.2f s; every key as live%n",
                        r.store(), r.keys(), r.entries(), r.bytes() >> 10, r.seconds());
            }
        }
    }

    private static byte[] check(int group, int target, long ts) {
        return ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"lb\":\"app/fleet/1\",\"target_group\":\"fleet-tg-"
                + group + "\",\"target\":\"i-" + group + "-" + target + "\",\"az\":\"us-east-1" + (char) ('a' + target % 3)
                + "\",\"outcome\":\"pass\",\"latency_ms\":" + (10 + (group + target) % 40) + ",\"state\":\"healthy\",\"check\":{"
                + "\"path\":\"/health\",\"interval_ms\":10000,\"timeout_ms\":5000,\"healthy_threshold\":3,\"unhealthy_threshold\":3}}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
