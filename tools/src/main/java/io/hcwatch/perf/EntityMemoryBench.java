package io.hcwatch.perf;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayPipeline;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.TopologyConfig;
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

/**
 * Heap per target group, after garbage collection, against a same-run baseline (the pipeline with
 * one target group that keeps time moving). Three states of N target groups, in one run: each
 * has sent one passing check (fresh), each has been checked every 10 s for several minutes
 * (active), and each has then been silent for longer than every window and the history lookback
 * (idle). Targets per group are configurable; the clock group is the same in all phases.
 */
public final class EntityMemoryBench {

    private static final long T0 = Instant.parse("2026-03-03T12:00:00Z").toEpochMilli();
    private static final long STEP = 10_000;

    private final ReplayPipeline pipeline;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final int groups;
    private final int targets;
    private final List<Alert> alerts = new ArrayList<>();
    private long now = T0;
    private long fed;

    private EntityMemoryBench(int groups, int targets) {
        this.groups = groups;
        this.targets = targets;
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://entity-memory-bench");
        // room for every group and the clock group: the bench measures memory, not the cardinality limit
        Settings settings = Settings.defaults().with(Map.of("limits.target-groups",
                String.valueOf(Math.max(groups + 1, Settings.defaults().integer("limits.target-groups")))));
        this.pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), settings,
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                alerts::add, d -> {
                    throw new IllegalStateException("rejected: " + d.getError());
                });
    }

    public static void run(int groups, int targets, int activeMinutes, int idleMinutes, PrintStream out) {
        EntityMemoryBench b = new EntityMemoryBench(groups, targets);
        long max = b.memory.getHeapMemoryUsage().getMax();
        out.printf("entity memory benchmark: %,d target groups x %d target(s), passing checks every 10 s; max heap %d MiB%n",
                groups, targets, max >> 20);
        long started = System.nanoTime();
        // baseline: the clock group alone, through the same windows
        b.tick(T0 + 60_000);
        long baseline = b.heapAfterGc();
        out.printf("  baseline (clock group only)        heap after GC %8.1f MiB%n", baseline / 1048576.0);
        b.round(b.now);
        b.tick(b.now + STEP);
        b.report(out, "fresh  (one check each)", baseline);
        for (long end = b.now + activeMinutes * 60_000L; b.now < end; ) {
            b.round(b.now);
            b.tick(b.now + STEP);
        }
        b.report(out, "active (" + activeMinutes + " min of checks)", baseline);
        b.tick(b.now + idleMinutes * 60_000L);
        b.report(out, "idle   (" + idleMinutes + " min silent)", baseline);
        out.printf("  %,d records in %.1f s; alerts %d%n", b.fed, (System.nanoTime() - started) / 1e9, b.alerts.size());
    }

    private void report(PrintStream out, String phase, long baseline) {
        long used = heapAfterGc();
        out.printf("  %-34s heap after GC %8.1f MiB  %,8.0f bytes per target group%n", phase, used / 1048576.0,
                (used - baseline) / (double) groups);
        histogram(out);
    }

    /** One passing check of every target of every group at about {@code at} (spread over a second). */
    private void round(long at) {
        for (int g = 0; g < groups; g++) {
            for (int t = 0; t < targets; t++) {
                feed(check("tg-" + g, g, t, at + (g % 1000)));
            }
        }
    }

    /** Moves event time to {@code until} by steps, through the clock group's checks. */
    private void tick(long until) {
        while (now < until) {
            now = Math.min(until, now + STEP);
            feed(check("clock-tg", 0, 0, now));
        }
    }

    private void feed(byte[] line) {
        pipeline.feed(Source.HEALTH, line, now, "bench", fed++);
    }

    private static byte[] check(String group, int g, int t, long ts) {
        return ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"lb\":\"app/bench/1\",\"target_group\":\"" + group
                + "\",\"target\":\"i-" + g + "-" + t + "\",\"target_ip\":\"10." + (g >> 16 & 255) + "." + (g >> 8 & 255) + "."
                + (g & 255) + "\",\"port\":" + (8000 + t) + ",\"az\":\"us-east-1" + (char) ('a' + t % 3)
                + "\",\"outcome\":\"pass\",\"latency_ms\":" + (10 + (g + t) % 40) + ",\"state\":\"healthy\",\"check\":{\"path\":\"/health\","
                + "\"interval_ms\":10000,\"timeout_ms\":5000,\"healthy_threshold\":3,\"unhealthy_threshold\":3}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The classes holding most of the heap (the JVM's GC.class_histogram), when HCWATCH_BENCH_HISTOGRAM is set. */
    private static void histogram(PrintStream out) {
        if (System.getenv("HCWATCH_BENCH_HISTOGRAM") == null) {
            return;
        }
        try {
            Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            String[] lines = text.toString().split("\n");
            for (int i = 0; i < Math.min(lines.length, 40); i++) {
                out.println("    " + lines[i]);
            }
        } catch (javax.management.JMException e) {
            out.println("    (no class histogram: " + e.getMessage() + ")");
        }
    }

    private long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
