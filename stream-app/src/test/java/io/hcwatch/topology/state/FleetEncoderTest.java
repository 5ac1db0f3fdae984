package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.traffic.LatencySketch;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A target group's parts written from its live state ({@link FleetEncoder}) are, name for name, in
 * order and byte for byte, the parts its tree cut by {@link FleetParts} gives ({@link TreeParts}):
 * over every commit of two hours of a target group that fails, churns, serves traffic and goes
 * quiet, and over what an earlier release stored.
 */
class FleetEncoderTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final MonitoredCodec<FleetState> whole = TopologyFactory.fleetCodec();
    private final TreeParts<FleetState> tree = new TreeParts<>(whole, new FleetParts());
    private final FleetEncoder direct = new FleetEncoder(whole);
    private final MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
            Settings.defaults().with(Map.of("alert.cool-down", "0s")));

    @Test
    void everyCommitOfTwoHoursOfATargetGroupIsWrittenAsItsTreeIsCut() {
        Monitored<FleetState> m = monitor.newKey("tg", null);
        int commits = 0;
        int withAlerts = 0;
        List<String> partNames = new ArrayList<>();
        for (long t = T0; t < T0 + 2 * 3_600_000L; t += 10_000) {
            long round = (t - T0) / 10_000;
            for (int i = 0; i < 24; i++) {
                feedCheck(m, i, round, t + i * 7L);
            }
            if (round % 3 == 0) {
                monitor.feed(m, new UnreadableCheck(new TargetSeen("tg", "i-90", t + 300, "health")), t + 300);
            }
            if (round >= 60 && round < 200) {
                serve(m, t + 500, round);
            }
            assertSameParts(m);
            commits++;
            withAlerts += m.alerts.episodes.isEmpty() ? 0 : 1;
            partNames.addAll(direct.encode(m).keySet());
        }
        assertThat(commits).isEqualTo(720);
        assertThat(withAlerts).as("commits of a target group with alerts").isPositive();
        assertThat(partNames).as("every family of parts was written")
                .contains("c", "t", "u", "d", "w", "s", "m")
                .anyMatch(n -> n.startsWith("h/")).anyMatch(n -> n.startsWith("l/")).anyMatch(n -> n.startsWith("s/"));
    }

    @Test
    void aTargetGroupAnEarlierReleaseStoredIsWrittenAsItsTreeIsCut() {
        Monitored<FleetState> stored = whole.decode(PartedMonitoredCodecTest.golden("fleet-prod-web-tg.json"));

        assertSameParts(stored);
    }

    @Test
    void aKeyWithNoDetectorStateYetIsWrittenAsItsTreeIsCut() {
        Monitored<FleetState> empty = new Monitored<>();
        empty.time.clock = T0;

        assertSameParts(empty);
        assertSameParts(monitor.newKey("tg", null));
    }

    private void assertSameParts(Monitored<FleetState> m) {
        Map<String, byte[]> expected = tree.encode(m);
        Map<String, byte[]> actual = direct.encode(m);
        assertThat(List.copyOf(actual.keySet())).as("part names, in the order they are written").isEqualTo(List.copyOf(expected.keySet()));
        expected.forEach((name, bytes) -> assertThat(shown(actual.get(name))).as("part '%s'", name).isEqualTo(shown(bytes)));
    }

    /** A part as text where it is JSON, else hex: a difference reads at its byte. */
    private static String shown(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.startsWith("{\"v\":3,") ? text : HexFormat.of().formatHex(bytes);
    }

    /**
     * Target {@code i} at round {@code round}: zone c's targets fail from round 100 to 160; target
     * 5 drains at round 300 and comes back at 320; target 7 stays silent from round 400; a new
     * target joins (initial first) every 50 rounds and dies before it is ever healthy.
     */
    private void feedCheck(Monitored<FleetState> m, int i, long round, long ts) {
        if (i == 7 && round >= 400) {
            return;
        }
        boolean failing = i % 3 == 2 && round >= 100 && round < 160;
        TargetState state = failing ? TargetState.unhealthy : TargetState.healthy;
        if (i == 5 && round >= 300 && round < 320) {
            state = TargetState.draining;
        }
        feed(m, check("i-" + i, i, ts, !failing, state));
        if (i == 0 && round % 50 == 10) {
            String fresh = "i-new-" + round;
            feed(m, check(fresh, 100 + (int) (round % 100), ts + 1, false, TargetState.initial));
            feed(m, check(fresh, 100 + (int) (round % 100), ts + 2, false, TargetState.unhealthy));
        }
    }

    private void feed(Monitored<FleetState> m, HealthCheckResult r) {
        monitor.feed(m, new Check(r), r.getTs().toEpochMilli());
    }

    static HealthCheckResult check(String target, int n, long ts, boolean ok, TargetState state) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts)).setSource("alb").setTargetGroup("tg").setTarget(target)
                .setTargetIp("10.0." + n / 200 + "." + n % 200).setPort(8080)
                .setAz("us-east-1" + "abc".charAt(n % 3)).setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout)
                .setLatencyMs(ok ? 150 + n + (int) (ts / 10_000 % 37) : 2001).setState(state).setReason(ok ? null : "Target.Timeout")
                .setStatusCode(ok ? 200 : null)
                .setCheck(CheckConfig.newBuilder().setTimeoutMs(2000).setIntervalMs(10_000).setHealthyThreshold(3)
                        .setUnhealthyThreshold(2).setPath("/health").build())
                .build();
    }

    /** A second of access logs: six targets serve, the last of them only every other round, one with 5xx. */
    private void serve(Monitored<FleetState> m, long at, long round) {
        Map<String, TargetCount> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < (round % 2 == 0 ? 6 : 5); i++) {
            Histogram latency = LatencySketch.create();
            for (int k = 0; k < 9; k++) {
                LatencySketch.record(latency, 20 + k + i * 3);
            }
            long requests = 10 + i;
            long failed = i == 2 ? 3 : 0;
            byTarget.put("10.0.0." + i + ":8080", new TargetCount(requests, requests - failed, 9 * 24.0, LatencySketch.encode(latency)));
        }
        long requests = byTarget.values().stream().mapToLong(TargetCount::getRequests).sum();
        TargetTraffic traffic = new TargetTraffic("tg", "app/web/1", at, requests, requests - 3, 3L, 0L, byTarget, null);
        monitor.feed(m, new TargetSummary(traffic), at);
    }
}
