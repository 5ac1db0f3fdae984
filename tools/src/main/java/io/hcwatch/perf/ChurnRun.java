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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Target groups that appear and disappear over days, replayed in-process: group i starts at
 * i x (span / groups) and sends one passing check per target every {@code intervalMillis} for
 * {@code lifetimeMillis}, then nothing. A heartbeat group sends throughout, so time keeps moving.
 * With arrivals at a steady rate, a store that deletes idle keys levels off at the groups alive or
 * idle-but-kept at any time; one that does not grows with every group ever seen.
 */
public final class ChurnRun {

    static final long T0 = Instant.parse("2026-03-02T00:00:00Z").toEpochMilli();
    static final long HOUR = 3_600_000L;

    /** One sample of the curve: hours since the start, groups sending, the fleet store's keys and bytes. */
    public record Sample(long hour, int live, int keys, long bytes) {
    }

    private ChurnRun() {
    }

    /**
     * @param settings replay settings (state.idle-timeout among them)
     * @param sampleEveryHours how often the store is measured
     */
    public static List<Sample> run(int groups, int targets, long spanMillis, long lifetimeMillis, long intervalMillis,
                                   Settings settings, int sampleEveryHours, Consumer<Sample> progress) {
        Map<String, Object> serde = Map.of("schema.registry.url", "mock://churn");
        List<Alert> alerts = new ArrayList<>();
        ReplayPipeline pipeline = new ReplayPipeline(new TopologyConfig(Topics.defaults(), settings,
                Decoders.standard(Topics.defaults(), serde, Clock.systemUTC()), serde, new SimpleMeterRegistry(), false),
                alerts::add, d -> {
                    throw new IllegalStateException("rejected: " + d.getError());
                });
        List<Sample> curve = new ArrayList<>();
        long gap = spanMillis / groups;
        long fed = 0;
        long nextSample = T0 + sampleEveryHours * HOUR;
        for (long t = T0; t <= T0 + spanMillis; t += intervalMillis) {
            // groups alive at t: started in (t - lifetime, t]
            int first = (int) Math.max(0, Math.floorDiv(t - lifetimeMillis - T0, gap) + 1);
            int last = (int) Math.min(groups - 1, Math.floorDiv(t - T0, gap));
            pipeline.feed(Source.HEALTH, check("heartbeat-tg", 0, t, intervalMillis), t, "churn", fed++);
            for (int g = first; g <= last; g++) {
                for (int k = 0; k < targets; k++) {
                    long ts = t + (g % 1000);
                    pipeline.feed(Source.HEALTH, check("tg-" + g, k, ts, intervalMillis), ts, "churn", fed++);
                }
            }
            if (t >= nextSample) {
                ReplayPipeline.StoreSize size = pipeline.storeSize(TopologyFactory.FLEET_STORE);
                Sample s = new Sample((t - T0) / HOUR, Math.max(0, last - first + 1), size.keys(), size.bytes());
                curve.add(s);
                progress.accept(s);
                nextSample += sampleEveryHours * HOUR;
            }
        }
        if (!alerts.isEmpty()) {
            throw new IllegalStateException("passing checks raised alerts: " + alerts.get(0));
        }
        return curve;
    }

    private static byte[] check(String group, int target, long ts, long intervalMillis) {
        return ("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\",\"lb\":\"app/churn/1\",\"target_group\":\"" + group
                + "\",\"target\":\"" + group + "-i-" + target + "\",\"az\":\"us-east-1" + (char) ('a' + target % 3)
                + "\",\"outcome\":\"pass\",\"latency_ms\":" + (10 + target % 30) + ",\"state\":\"healthy\",\"check\":{\"path\":\"/health\","
                + "\"interval_ms\":" + intervalMillis + ",\"timeout_ms\":5000,\"healthy_threshold\":3,\"unhealthy_threshold\":3}}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
