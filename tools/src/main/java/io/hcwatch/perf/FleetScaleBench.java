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
import java.util.concurrent.atomic.LongAdder;

/**
 * A fleet at scale, replayed in-process through the real processors: T targets in G target groups,
 * each target checked every 10 s (JSON health-check results), plus the access-log mix of
 * {@link BenchWorkload} (ALB access and health-check logs, HAProxy) at a given rate. The monitors'
 * stores are committed every {@code commitMillis} of event time, encoding what changed as Kafka
 * Streams would for the changelog. Prints records/s, heap after GC, the stores' encoded size and
 * the changelog bytes per second of event time.
 */
public final class FleetScaleBench {

    private FleetScaleBench() {
    }

    public static void run(int groups, int targets, int accessPerSecond, int minutes, long commitMillis, PrintStream out) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://fleet-scale-bench");
        LongAdder changelog = new LongAdder();
        List<Alert> alerts = new ArrayList<>();
        long[] dead = {0};
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), Settings.defaults(),
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                alerts::add, d -> dead[0]++, ChangelogMeter.monitors(changelog::add));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        int perGroup = Math.max(1, targets / groups);
        int checksPerSecond = groups * perGroup / 10;
        long seconds = minutes * 60L;
        out.printf("fleet-scale benchmark: %,d targets in %,d target groups checked every 10 s (%,d checks/s) + %,d access-log"
                        + " lines/s, %d min of event time, commit every %d ms; max heap %d MiB%n", groups * perGroup, groups,
                checksPerSecond, accessPerSecond, minutes, commitMillis, memory.getHeapMemoryUsage().getMax() >> 20);
        long start = BenchWorkload.T0;
        long[] fed = {0};
        long[] nextCheck = {0};
        long[] nextCommit = {start + commitMillis};
        long[] nextReport = {start + 5 * 60_000L};
        long[] gcNanos = {0};
        long[] peakHeap = {0};
        long[] changelogAtReport = {0};
        long started = System.nanoTime();
        long totalChecks = checksPerSecond * seconds;
        new BenchWorkload(17, accessPerSecond, false).generate(accessPerSecond * seconds, start, line -> {
            long t = line.eventTime();
            // checks up to this line's time: check k of the run goes to target k mod T, at k / rate seconds
            while (nextCheck[0] < totalChecks && start + nextCheck[0] * 1000 / checksPerSecond <= t) {
                long k = nextCheck[0]++;
                long ts = start + k * 1000 / checksPerSecond;
                int target = (int) (k % ((long) groups * perGroup));
                pipeline.feed(Source.HEALTH, check(target / perGroup, target % perGroup, ts), ts, "bench", fed[0]++);
            }
            pipeline.feed(line.source(), line.value(), t, "bench", fed[0]++);
            while (t >= nextCommit[0]) {
                pipeline.commit();
                nextCommit[0] += commitMillis;
            }
            if (t >= nextReport[0]) {
                long g = System.nanoTime();
                System.gc();
                long used = memory.getHeapMemoryUsage().getUsed();
                peakHeap[0] = Math.max(peakHeap[0], used);
                gcNanos[0] += System.nanoTime() - g;
                long bytes = changelog.sum();
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
        ReplayPipeline.StoreSize fleet = pipeline.storeSize(TopologyFactory.FLEET_STORE);
        ReplayPipeline.StoreSize host = pipeline.storeSize(TopologyFactory.HOST_STORE);
        ReplayPipeline.StoreSize flood = pipeline.storeSize(TopologyFactory.FLOOD_STORE);
        out.printf("records %,d in %.0f s: %,.0f records/s (one thread; GC for the samples excluded); heap after GC %d MiB"
                        + " (peak %d MiB)%n", fed[0], wall, fed[0] / wall, heap >> 20, peakHeap[0] >> 20);
        out.printf("stores (encoded, what the changelogs hold after compaction): fleet %,d keys %,d KiB, host %,d keys %,d KiB,"
                        + " flood %,d keys %,d KiB%n", fleet.keys(), fleet.bytes() >> 10, host.keys(), host.bytes() >> 10,
                flood.keys(), flood.bytes() >> 10);
        out.printf("changelog written: %,d MiB, %,.0f KiB per second of event time; alerts %d; dead letters %d%n",
                changelog.sum() >> 20, changelog.sum() / (double) seconds / 1024, alerts.size(), dead[0]);
    }

    private static byte[] check(int group, int target, long ts) {
        return ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"lb\":\"app/fleet/1\",\"target_group\":\"fleet-tg-"
                + group + "\",\"target\":\"i-" + group + "-" + target + "\",\"az\":\"us-east-1" + (char) ('a' + target % 3)
                + "\",\"outcome\":\"pass\",\"latency_ms\":" + (10 + (group + target) % 40) + ",\"state\":\"healthy\",\"check\":{"
                + "\"path\":\"/health\",\"interval_ms\":10000,\"timeout_ms\":5000,\"healthy_threshold\":3,\"unhealthy_threshold\":3}}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
