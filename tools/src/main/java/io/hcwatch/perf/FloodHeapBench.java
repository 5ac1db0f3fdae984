package io.hcwatch.perf;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.HaproxyLineFormat;
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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Heap under a flood of distinct client addresses: every ALB and HAProxy request comes from an
 * address never seen before (1M new addresses per minute of event time by default) while one
 * planted client sends 2,000 req/s to one frontend (a fifth to a third of its traffic). Reports the heap in use after garbage
 * collection as the run goes, and whether client_flood still named the planted client.
 */
public final class FloodHeapBench {

    private static final String PLANTED = "203.0.113.7";

    private FloodHeapBench() {
    }

    public static void run(int minutes, int distinctPerMinute, PrintStream out) {
        int rate = distinctPerMinute / 60;
        long lines = (long) rate * 60 * minutes;
        List<Alert> alerts = new ArrayList<>();
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://flood-bench");
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), Settings.defaults(),
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                alerts::add, d -> {
                    throw new IllegalStateException("rejected: " + d.getError());
                });
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long maxHeap = memory.getHeapMemoryUsage().getMax();
        out.printf("flood heap benchmark: %d min of event time, %,d distinct client addresses per minute (%,d lines)"
                + " plus %s at 2,000 req/s; max heap %d MiB%n", minutes, distinctPerMinute, lines, PLANTED, maxHeap >> 20);
        HaproxyLineFormat format = new HaproxyLineFormat(ZoneOffset.UTC);
        long[] fed = {0};
        long[] peak = {0};
        long started = System.nanoTime();
        long[] nextPlanted = {BenchWorkload.T0};
        new BenchWorkload(11, rate, true).generate(lines, line -> {
            while (nextPlanted[0] <= line.eventTime()) {
                byte[] planted = format.format(planted(nextPlanted[0])).getBytes(StandardCharsets.UTF_8);
                pipeline.feed(Source.HAPROXY, planted, nextPlanted[0], "planted", 0);
                pipeline.feed(Source.HAPROXY, planted, nextPlanted[0], "planted", 0);
                nextPlanted[0] += 1;
            }
            pipeline.feed(line.source(), line.value(), line.eventTime(), "bench", fed[0]);
            if (++fed[0] % 500_000 == 0) {
                System.gc();
                long used = memory.getHeapMemoryUsage().getUsed();
                peak[0] = Math.max(peak[0], used);
                out.printf("  %,10d lines: heap after GC %4d MiB%n", fed[0], used >> 20);
            }
        });
        pipeline.finish();
        System.gc();
        long used = memory.getHeapMemoryUsage().getUsed();
        peak[0] = Math.max(peak[0], used);
        double seconds = (System.nanoTime() - started) / 1e9;
        boolean named = alerts.stream().anyMatch(a -> a.getType().equals("client_flood") && PLANTED.equals(a.getScope().getClient()));
        long floods = alerts.stream().filter(a -> a.getType().equals("client_flood")).map(a -> a.getScope().getClient()).distinct().count();
        out.printf("peak heap after GC %d MiB of %d MiB max; %,.0f lines/s; client_flood named %s: %s; distinct clients"
                + " flagged: %d%n", peak[0] >> 20, maxHeap >> 20, lines / seconds, PLANTED, named ? "yes" : "NO", floods);
    }

    private static HaproxyRequest planted(long ts) {
        return HaproxyRequest.newBuilder()
                .setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(ts)).setHost("lb1").setProcess("haproxy").setPid(1200)
                .setClientIp(PLANTED).setClientPort(40_000).setFrontend("fe-web").setBackend("be-web").setServer("s1")
                .setTr(0).setTw(0).setTc(1).setTrServer(5).setTa(9).setStatusCode(200).setBytesRead(120L)
                .setTerminationState("----").setActconn(300).setFeconn(280).setBeconn(270).setSrvConn(30).setRetries(0)
                .setSrvQueue(0).setBackendQueue(0)
                .setHttpMethod("GET").setHttpUri("/v1/devices/6f1c2d9e-1b2a-4c3d-9e8f-0a1b2c3d4e5f/ping").setHttpVersion("HTTP/1.1")
                .build();
    }
}
