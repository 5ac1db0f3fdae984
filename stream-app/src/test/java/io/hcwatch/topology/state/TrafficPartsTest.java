package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.traffic.LatencySketch;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * What a target group keeps of its access logs, in parts ({@link TrafficParts}): three targets
 * serve 10 requests a second from T0 (every tenth one a 5xx, answered in 20-29 ms), a fourth from
 * T0+50s on, so its earlier slots are empty; the window is read at T0+60s.
 */
class TrafficPartsTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final PartedMonitoredCodec<FleetState> parted = TopologyFactory.fleetStoreCodec();
    private final MonitoredCodec<FleetState> whole = TopologyFactory.fleetCodec();
    private final MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
            Settings.defaults());

    @Test
    void aServedWindowReadsBackFromItsSlotParts() {
        Monitored<FleetState> m = servedMinute();
        assertThat(m.state.served.byTarget).hasSize(4);
        Map<String, byte[]> parts = parted.encodeParts(m);
        assertThat(parts.keySet()).contains("w", "s").anyMatch(name -> name.startsWith("s/"));

        Monitored<FleetState> back = parted.decodeParts(parts);

        assertThat(back.state.served.byTarget).hasSize(4);
        assertThat(whole.encode(back)).isEqualTo(whole.encode(m));
    }

    @Test
    void aSecondOfTrafficRewritesTheLiveSlotNotTheWindow() {
        Monitored<FleetState> m = servedMinute();
        Map<String, byte[]> before = parted.encodeParts(m);

        serve(m, T0 + 60_000, List.of("10.0.0.1:8080"));
        Map<String, byte[]> after = parted.encodeParts(m);

        List<String> slotsRewritten = after.keySet().stream().filter(name -> name.startsWith("s/"))
                .filter(name -> !Arrays.equals(after.get(name), before.get(name))).toList();
        assertThat(slotsRewritten).hasSize(1);
        assertThat(after.keySet().stream().filter(name -> name.startsWith("s/")).count()).isGreaterThan(2);
    }

    private Monitored<FleetState> servedMinute() {
        Monitored<FleetState> m = monitor.newKey("tg", null);
        for (long at = T0; at < T0 + 60_000; at += 1000) {
            List<String> targets = at < T0 + 50_000 ? List.of("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080")
                    : List.of("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080", "10.0.0.4:8080");
            serve(m, at, targets);
        }
        return m;
    }

    private void serve(Monitored<FleetState> m, long at, List<String> targets) {
        Map<String, TargetCount> byTarget = new LinkedHashMap<>();
        for (String target : targets) {
            Histogram latency = LatencySketch.create();
            for (int i = 0; i < 9; i++) {
                LatencySketch.record(latency, 20 + i);
            }
            byTarget.put(target, new TargetCount(10L, 9L, 9 * 24.0, LatencySketch.encode(latency)));
        }
        long requests = 10L * targets.size();
        TargetTraffic traffic = new TargetTraffic("tg", "app/web/1", at, requests, requests - targets.size(),
                (long) targets.size(), 0L, byTarget, null);
        monitor.feed(m, new TargetSummary(traffic), at);
    }
}
