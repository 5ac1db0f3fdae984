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

/**
 * A runaway producer: every health check names a target group never seen before (an id and a
 * timestamp in the name), N of them within a span of event time, through the real ingest and fleet
 * monitor with the default limits. Prints how many were taken in and dead-lettered, the heap after
 * GC as the run goes, and the rate.
 */
public final class CardinalityBench {

    private static final long T0 = Instant.parse("2026-03-03T12:00:00Z").toEpochMilli();

    private CardinalityBench() {
    }

    public static void run(int names, int seconds, PrintStream out) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://cardinality-bench");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        long[] dead = {0};
        List<Alert> alerts = new ArrayList<>();
        Settings settings = Settings.defaults();
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), settings,
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, registry, false), alerts::add, d -> {
                    if (!"cardinality".equals(d.getReason())) {
                        throw new IllegalStateException("rejected: " + d.getError());
                    }
                    dead[0]++;
                });
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        out.printf("cardinality benchmark: %,d distinct target-group names in %d s of event time; limits.target-groups %,d;"
                + " max heap %d MiB%n", names, seconds, settings.integer("limits.target-groups"), memory.getHeapMemoryUsage().getMax() >> 20);
        long started = System.nanoTime();
        long peak = 0;
        int report = Math.max(1, names / 5);
        for (int i = 0; i < names; i++) {
            long ts = T0 + (long) i * seconds * 1000 / names;
            byte[] line = ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"target_group\":\"orders-" + i + "-" + ts
                    + "\",\"target\":\"i-1\",\"outcome\":\"pass\",\"latency_ms\":12,\"state\":\"healthy\"}").getBytes(StandardCharsets.UTF_8);
            pipeline.feed(Source.HEALTH, line, ts, "bench", i);
            if ((i + 1) % report == 0) {
                System.gc();
                long used = memory.getHeapMemoryUsage().getUsed();
                peak = Math.max(peak, used);
                out.printf("  %,10d names: %,9d dead-lettered, heap after GC %4d MiB%n", i + 1, dead[0], used >> 20);
            }
        }
        pipeline.finish();
        double secs = (System.nanoTime() - started) / 1e9;
        System.gc();
        peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
        out.printf("taken in %,d target groups (store keys), dead-lettered %,d (reason cardinality; metric %,.0f);"
                        + " peak heap after GC %d MiB; %,.0f records/s; alerts %d%n",
                pipeline.storeSize(TopologyFactory.FLEET_STORE).keys(), dead[0],
                registry.get("hcwatch.cardinality.rejected").tag("kind", "target_group").counter().count(), peak >> 20,
                names / secs, alerts.size());
    }
}
