package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.topology.TopologyFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A monitored key kept in parts: it reads back as it was written, a commit rewrites the parts its
 * records changed and no other, and a key stored whole by the layout before (golden files of layout
 * 1, src/test/resources/state/v1) is read and then stored in parts.
 */
class PartedMonitoredCodecTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final PartedMonitoredCodec<FleetState> parted = TopologyFactory.fleetStoreCodec();
    private final MonitoredCodec<FleetState> whole = TopologyFactory.fleetCodec();
    private final MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
            Settings.defaults().with(Map.of("alert.cool-down", "0s")));

    private static HealthCheckResult check(int target, long ts, boolean ok, TargetState state) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts)).setSource("alb").setTargetGroup("tg").setTarget("i-" + target)
                .setTargetIp("10.0.0." + target).setPort(8080)
                .setAz("us-east-1" + "abc".charAt(target % 3)).setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout)
                .setLatencyMs(ok ? 150 + target : 2001).setState(state).setReason(ok ? null : "Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setTimeoutMs(2000).setIntervalMs(10_000).setHealthyThreshold(3)
                        .setUnhealthyThreshold(2).setPath("/health").build())
                .build();
    }

    /** Twelve targets for {@code seconds}: half of them failing from {@code failFrom} on, one drained at the end. */
    private Monitored<FleetState> targetGroup(long seconds, long failFrom) {
        Monitored<FleetState> m = monitor.newKey("tg", null);
        feed(m, T0, T0 + seconds * 1000, failFrom);
        HealthCheckResult drained = check(11, T0 + seconds * 1000, true, TargetState.draining);
        monitor.feed(m, new Check(drained), drained.getTs().toEpochMilli());
        return m;
    }

    private void feed(Monitored<FleetState> m, long from, long to, long failFrom) {
        for (long t = from; t < to; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                boolean ok = t < failFrom || i % 2 == 1;
                HealthCheckResult r = check(i, t + i, ok, ok ? TargetState.healthy : TargetState.unhealthy);
                monitor.feed(m, new Check(r), r.getTs().toEpochMilli());
            }
        }
    }

    @Test
    void aTargetGroupReadBackFromItsPartsIsTheOneWritten() {
        Monitored<FleetState> m = targetGroup(600, T0 + 400_000);
        assertThat(m.state.registry.departed).containsKey("i-11");
        assertThat(m.alerts.episodes).isNotEmpty();
        Map<String, byte[]> parts = parted.encodeParts(m);
        assertThat(parts.keySet()).contains("m", "c", "t", "u", "d", "h/0", "l/0");

        Monitored<FleetState> back = parted.decodeParts(parts);

        assertThat(whole.encode(back)).isEqualTo(whole.encode(m));
    }

    @Test
    void checksThatChangeNoTargetsStateRewriteWhatTheyMovedNotTheTargetsOrTheHead() {
        Monitored<FleetState> m = monitor.newKey("tg", null);
        feed(m, T0, T0 + 300_000, Long.MAX_VALUE);
        Map<String, byte[]> before = parted.encodeParts(m);

        feed(m, T0 + 300_000, T0 + 310_000, Long.MAX_VALUE);

        assertThat(changed(before, parted.encodeParts(m))).doesNotContain("m", "t").contains("c", "u").hasSizeLessThan(8);
    }

    private static Set<String> changed(Map<String, byte[]> before, Map<String, byte[]> after) {
        Set<String> out = new HashSet<>();
        after.forEach((name, bytes) -> {
            if (!java.util.Arrays.equals(bytes, before.get(name))) {
                out.add(name);
            }
        });
        before.keySet().stream().filter(name -> !after.containsKey(name)).forEach(out::add);
        return out;
    }

    @Test
    void aCommitWritesOnlyThePartsThatChangedAndDeletesThoseAKeyNoLongerHas() {
        SortedBytesStore changelog = new SortedBytesStore();
        WriteBehindStore<Monitored<FleetState>> store = WriteBehindStore.over(changelog.store(), parted);
        Monitored<FleetState> m = store.getForUpdate("tg", key -> monitor.newKey(key, null));
        feed(m, T0, T0 + 300_000, Long.MAX_VALUE);
        store.flushCache();
        assertThat(changelog.writes).contains("put tg|m", "put tg|t", "put tg|u");
        changelog.writes.clear();

        store.getForUpdate("tg", key -> null);
        feed(m, T0 + 300_000, T0 + 310_000, Long.MAX_VALUE);
        store.flushCache();
        assertThat(changelog.writes).contains("put tg|u", "put tg|c").doesNotContain("put tg|m", "put tg|t");

        changelog.writes.clear();
        store.delete("tg");
        store.flushCache();
        assertThat(changelog.entries).isEmpty();
        assertThat(changelog.writes).contains("delete tg").allMatch(w -> w.startsWith("delete tg|") || w.equals("delete tg"));
    }

    /** Restore: a store started over the changelog reads every key from its parts, as it was. */
    @Test
    void aStoreStartedOverItsChangelogReadsEveryKeyFromItsParts() {
        SortedBytesStore changelog = new SortedBytesStore();
        WriteBehindStore<Monitored<FleetState>> store = WriteBehindStore.over(changelog.store(), parted);
        Monitored<FleetState> a = store.getForUpdate("tg-a", key -> targetGroup(300, T0 + 200_000));
        Monitored<FleetState> b = store.getForUpdate("tg-a-b", key -> targetGroup(120, Long.MAX_VALUE));
        store.flushCache();

        WriteBehindStore<Monitored<FleetState>> restored = WriteBehindStore.over(changelog.store(), parted);

        assertThat(restored.keys()).containsExactlyInAnyOrder("tg-a", "tg-a-b");
        assertThat(whole.encode(restored.get("tg-a"))).isEqualTo(whole.encode(a));
        assertThat(whole.encode(restored.get("tg-a-b"))).isEqualTo(whole.encode(b));
    }

    @Test
    void aTargetGroupStoredWholeByLayoutOneIsReadThenStoredInParts() {
        SortedBytesStore changelog = new SortedBytesStore();
        byte[] golden = golden("fleet-prod-web-tg.json");
        changelog.put("prod-web-tg", golden);
        WriteBehindStore<Monitored<FleetState>> store = WriteBehindStore.over(changelog.store(), parted);

        Monitored<FleetState> m = store.getForUpdate("prod-web-tg", key -> null);
        assertThat(m.state.targets()).hasSize(18);
        assertThat(m.state.check.lastChange.before.timeoutMs).isEqualTo(5000);
        assertThat(m.alerts.episodes).containsKeys("health_latency_headroom/prod-web-tg", "health_check_config_risk/prod-web-tg");
        store.flushCache();

        assertThat(changelog.keys()).contains("prod-web-tg|m", "prod-web-tg|t", "prod-web-tg|u");
        assertThat(changelog.get("prod-web-tg")).as("the key itself holds the frame now").isEqualTo(PartedMonitoredCodec.FRAME);
        Monitored<FleetState> fromParts = WriteBehindStore.over(changelog.store(), parted).get("prod-web-tg");
        assertThat(whole.encode(fromParts)).as("every field of layout 1 survives in the parts").isEqualTo(golden);
    }

    @Test
    void aClientScopeStoredWholeByLayoutOneIsReadThenStoredASecondAPart() {
        PartedMonitoredCodec<FloodState> flood = TopologyFactory.floodStoreCodec();
        SortedBytesStore changelog = new SortedBytesStore();
        byte[] golden = golden("flood-haproxy-www.json");
        changelog.put("haproxy/www", golden);
        WriteBehindStore<Monitored<FloodState>> store = WriteBehindStore.over(changelog.store(), flood);
        assertThat(store.getForUpdate("haproxy/www", key -> null).state.seconds).hasSize(40);
        store.flushCache();

        assertThat(changelog.keys()).contains("haproxy/www", "haproxy/www|m").hasSize(42);
        Monitored<FloodState> fromParts = WriteBehindStore.over(changelog.store(), flood).get("haproxy/www");
        assertThat(TopologyFactory.floodCodec().encode(fromParts)).isEqualTo(golden);
    }

    @Test
    void aHostStoredWholeByLayoutOneIsReadThenStoredWithItsSecondsInChunks() {
        PartedMonitoredCodec<HostState> host = TopologyFactory.hostStoreCodec();
        SortedBytesStore changelog = new SortedBytesStore();
        byte[] golden = golden("host-lb1.json");
        changelog.put("lb1", golden);
        WriteBehindStore<Monitored<HostState>> store = WriteBehindStore.over(changelog.store(), host);
        assertThat(store.getForUpdate("lb1", key -> null).state.frontends).containsKey("hc-ping");
        store.flushCache();

        assertThat(changelog.keys()).contains("lb1", "lb1|m", "lb1|f/0/0");
        Monitored<HostState> fromParts = WriteBehindStore.over(changelog.store(), host).get("lb1");
        assertThat(TopologyFactory.hostCodec().encode(fromParts)).isEqualTo(golden);
    }

    /** A key a newer layout stored in parts is refused alone: the store reads every other key. */
    @Test
    void aKeyOfANewerPartedLayoutIsRefusedAloneWhileTheOthersAreRead() {
        SortedBytesStore changelog = new SortedBytesStore();
        WriteBehindStore<Monitored<FleetState>> store = WriteBehindStore.over(changelog.store(), parted);
        store.getForUpdate("tg-a", key -> targetGroup(60, Long.MAX_VALUE));
        store.flushCache();
        changelog.put("tg-newer\0m", ("{\"v\":" + (PartedMonitoredCodec.VERSION + 1) + "}").getBytes(StandardCharsets.UTF_8));
        changelog.put("tg-newer\0x", new byte[] {1, 2, 3});

        WriteBehindStore<Monitored<FleetState>> restored = WriteBehindStore.over(changelog.store(), parted);

        assertThat(restored.keys()).containsExactly("tg-a");
        assertThatThrownBy(() -> restored.get("tg-newer")).isInstanceOf(NewerLayoutException.class).hasMessageContaining("layout " + (PartedMonitoredCodec.VERSION + 1));
    }

    /** A golden file of layout 1 (a key stored whole). */
    static byte[] golden(String name) {
        try (InputStream in = PartedMonitoredCodecTest.class.getResourceAsStream("/state/v1/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing golden file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
