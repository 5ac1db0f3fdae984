package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.detect.slots.SlotDetection;
import io.hcwatch.detect.slots.SlotSettings;
import io.hcwatch.detect.slots.SocketSlotDetector;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.topology.TopologyFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Detector state survives its changelog: restored state behaves exactly like the state that was
 * written, state written by the last release of the unversioned layout is read by this one, and
 * state this release cannot read (a newer layout, an unknown field) is refused loudly.
 */
class MonitoredCodecTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final MonitoredCodec<FleetState> fleetCodec = TopologyFactory.fleetCodec();

    private static HealthCheckResult check(int target, long ts, boolean ok) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts)).setSource("alb").setTargetGroup("tg").setTarget("i-" + target)
                .setAz("us-east-1" + "abc".charAt(target % 3)).setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout)
                .setLatencyMs(ok ? 150 + target : 2001).setState(ok ? TargetState.healthy : TargetState.unhealthy)
                .setReason(ok ? null : "Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setTimeoutMs(2000).setIntervalMs(10_000).setHealthyThreshold(3)
                        .setUnhealthyThreshold(2).setPath("/health").build())
                .build();
    }

    @Test
    void aRestoredTargetGroupRaisesTheSameAlertsAsTheOriginal() {
        MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
                Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s")));
        Monitored<FleetState> original = monitor.newKey("tg", null);
        for (long t = T0; t < T0 + 90_000; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                HealthCheckResult r = check(i, t + i, t < T0 + 60_000 || i % 2 == 1);
                monitor.feed(original, new Check(r), r.getTs().toEpochMilli());
            }
        }
        byte[] bytes = fleetCodec.encode(original);
        Monitored<FleetState> restored = fleetCodec.decode(bytes);
        assertThat(fleetCodec.encode(restored)).isEqualTo(bytes);

        List<String> fromOriginal = new ArrayList<>();
        List<String> fromRestored = new ArrayList<>();
        for (long t = T0 + 90_000; t < T0 + 240_000; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                HealthCheckResult r = check(i, t + i, t >= T0 + 150_000 || i % 2 == 1);
                monitor.feed(original, new Check(r), r.getTs().toEpochMilli()).forEach(n -> fromOriginal.add(describe(n)));
                monitor.feed(restored, new Check(r), r.getTs().toEpochMilli()).forEach(n -> fromRestored.add(describe(n)));
            }
        }
        assertThat(fromOriginal).anyMatch(d -> d.startsWith("correlated_failure/tg resolved"));
        assertThat(fromRestored).isEqualTo(fromOriginal);
    }

    /**
     * An idle target group keeps no maps or slot arrays in memory (shared empty ones stand in for
     * them): it is still written with every field it always had, reads back to the same bytes, and
     * takes checks and raises alerts again as a fresh state read from the changelog does.
     */
    @Test
    void anIdleTargetGroupIsWrittenAsBeforeAndComesBackToLife() {
        MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
                Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s")));
        Monitored<FleetState> idle = monitor.newKey("tg", null);
        for (long t = T0; t < T0 + 60_000; t += 10_000) {
            for (int i = 0; i < 4; i++) {
                HealthCheckResult r = check(i, t + i, true);
                monitor.feed(idle, new Check(r), r.getTs().toEpochMilli());
            }
        }
        long later = T0 + 3 * 3_600_000L;
        monitor.reach(idle, later);
        assertThat(idle.state.targets()).isEmpty();
        String json = new String(fleetCodec.encode(idle), StandardCharsets.UTF_8);
        for (String field : List.of("\"targets\":{}", "\"departed\":{}", "\"timeoutsAt\":{}", "\"episodes\":{}", "\"history\":{}",
                "\"holding\":{}", "\"byTarget\":{}", "\"cidrs\":{}", "\"slotStart\":[" + Long.MIN_VALUE + ",")) {
            assertThat(json).contains(field);
        }
        Monitored<FleetState> restored = fleetCodec.decode(json.getBytes(StandardCharsets.UTF_8));
        assertThat(new String(fleetCodec.encode(restored), StandardCharsets.UTF_8)).isEqualTo(json);

        List<String> fromIdle = new ArrayList<>();
        List<String> fromRestored = new ArrayList<>();
        for (long t = later + 10_000; t < later + 150_000; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                HealthCheckResult r = check(i, t + i, t < later + 60_000 || i % 2 == 1);
                monitor.feed(idle, new Check(r), r.getTs().toEpochMilli()).forEach(n -> fromIdle.add(describe(n)));
                monitor.feed(restored, new Check(r), r.getTs().toEpochMilli()).forEach(n -> fromRestored.add(describe(n)));
            }
        }
        assertThat(fromIdle).anyMatch(d -> d.startsWith("correlated_failure/tg"));
        assertThat(fromRestored).isEqualTo(fromIdle);
        assertThat(fleetCodec.encode(restored)).isEqualTo(fleetCodec.encode(idle));
    }

    @Test
    void aTargetGroupWrittenByTheLastUnversionedReleaseIsReadWithItsTargetsCheckChangeAndAlerts() {
        Monitored<FleetState> m = fleetCodec.decode(golden("fleet-prod-web-tg.json"));
        assertThat(m.time.clock).isEqualTo(1772546909000L);
        assertThat(m.time.lastStep).isEqualTo(1772546900000L);
        FleetState s = m.state;
        assertThat(s.targetGroup).isEqualTo("prod-web-tg");
        assertThat(s.pool.lb).isEqualTo("app/prod-web/50dc6c495c0c9188");
        assertThat(s.pool.configuredTargets).isEqualTo(18);
        assertThat(s.targets()).hasSize(18);
        assertThat(s.settings().timeoutMs).isEqualTo(2000);
        assertThat(s.check.lastChange.before.timeoutMs).isEqualTo(5000);
        assertThat(s.check.lastChange.peakP99).isPositive();
        assertThat(s.latency.all.window(m.time.clock, 60_000).getTotalCount()).isPositive();
        assertThat(m.alerts.episodes).containsKeys("health_latency_headroom/prod-web-tg", "health_check_config_risk/prod-web-tg");
        // and it is written back in this release's layout, which reads back the same
        byte[] current = fleetCodec.encode(m);
        assertThat(new String(current, StandardCharsets.UTF_8)).startsWith("{\"v\":" + MonitoredCodec.VERSION + ",");
        assertThat(fleetCodec.encode(fleetCodec.decode(current))).isEqualTo(current);
    }

    @Test
    void aHostAndAClientScopeWrittenByTheLastUnversionedReleaseAreRead() {
        MonitoredCodec<HostState> hostCodec = TopologyFactory.hostCodec();
        Monitored<HostState> host = hostCodec.decode(golden("host-lb1.json"));
        assertThat(host.state.host).isEqualTo("lb1");
        assertThat(host.state.frontendMaxconn).containsEntry("hc-ping", 256);
        assertThat(host.state.frontends).containsKey("hc-ping");
        assertThat(host.alerts.episodes).containsKey("socket_slot_exhaustion/lb1/hc-ping");
        assertThat(host.time.clock).isPositive();
        // the migrated frontend takes seconds that log slot time and holders, and is judged on them
        long next = host.time.clock + 1_000;
        SlotSettings slots = SlotSettings.from(Settings.defaults());
        new SlotDetection(slots).apply(host.state, new FrontendSummary(new HaproxyTraffic("lb1", "hc-ping", next, 300L, 256, 265, 0, 50L, 170_000L,
                new HashMap<>(Map.of("PT", 170L, "sQ", 50L, "--", 80L)), new ArrayList<>(), new HashMap<>(Map.of("sQ", 50L)),
                250_000L, 220L, new ArrayList<>(List.of(new HeavyHitter("203.0.113.77", 240_000L, 0L))))), next);
        assertThat(new SocketSlotDetector(slots).judge(host.state, next)).singleElement()
                .satisfies(f -> assertThat(f.details()).containsEntry("maxconn", "256").containsEntry("feconn", "256")
                        .containsEntry("slot_holders", "203.0.113.77=96%"));
        byte[] hostNow = hostCodec.encode(host);
        assertThat(hostCodec.encode(hostCodec.decode(hostNow))).isEqualTo(hostNow);

        MonitoredCodec<FloodState> floodCodec = TopologyFactory.floodCodec();
        Monitored<FloodState> scope = floodCodec.decode(golden("flood-haproxy-www.json"));
        assertThat(scope.state.scope).isEqualTo("www");
        assertThat(scope.state.seconds).hasSize(40);
        byte[] current = floodCodec.encode(scope);
        assertThat(floodCodec.encode(floodCodec.decode(current))).isEqualTo(current);
    }

    @Test
    void eachKindIsWrittenAsTheVersionFieldFollowedByTheTreeOfItsFields() throws IOException {
        // the layout written before the encoder stopped building a tree: {"v": N} with the key's fields set after it
        assertWrittenAsTree(fleetCodec, fleetCodec.decode(golden("fleet-prod-web-tg.json")));
        assertWrittenAsTree(TopologyFactory.hostCodec(), TopologyFactory.hostCodec().decode(golden("host-lb1.json")));
        assertWrittenAsTree(TopologyFactory.floodCodec(), TopologyFactory.floodCodec().decode(golden("flood-haproxy-www.json")));
    }

    private static <S> void assertWrittenAsTree(MonitoredCodec<S> codec, Monitored<S> m) throws IOException {
        byte[] written = codec.encode(m);
        ObjectMapper mapper = MonitoredCodec.STRICT;
        ObjectNode tree = mapper.createObjectNode();
        tree.put("v", MonitoredCodec.VERSION);
        tree.setAll((ObjectNode) mapper.valueToTree(m));
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(mapper.writeValueAsString(tree));
    }

    @Test
    void stateOfANewerLayoutIsRefusedRatherThanReadAsEmpty() {
        byte[] newer = ("{\"v\":" + (MonitoredCodec.VERSION + 1) + ",\"time\":{},\"state\":{},\"alerts\":{}}")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> fleetCodec.decode(newer)).isInstanceOf(NewerLayoutException.class)
                .hasMessageContaining("newer hcwatch");
    }

    @Test
    void aFieldThisReleaseDoesNotKnowIsRefusedRatherThanDropped() {
        String current = new String(fleetCodec.encode(fleetCodec.decode(golden("fleet-prod-web-tg.json"))), StandardCharsets.UTF_8);
        byte[] withFutureField = current.replaceFirst("\"pool\":\\{", "\"pool\":{\"futureThreshold\":3,")
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> fleetCodec.decode(withFutureField)).isInstanceOf(NewerLayoutException.class)
                .hasMessageContaining("futureThreshold");
    }

    private static byte[] golden(String name) {
        try (InputStream in = MonitoredCodecTest.class.getResourceAsStream("/state/v0/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing golden file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String describe(Notification n) {
        return n.dedupKey() + " " + (n.firing() ? "firing " + n.severity() : "resolved") + " " + n.alertId();
    }
}
