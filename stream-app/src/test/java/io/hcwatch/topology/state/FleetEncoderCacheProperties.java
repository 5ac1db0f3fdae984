package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.fleet.TargetRecord;
import io.hcwatch.input.Check;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.traffic.LatencySketch;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.HdrHistogram.Histogram;

/**
 * A target group's parts as {@link FleetEncoder} writes them with its cache (for a commit, a history
 * chunk whose values hash as before comes by its bytes' hash alone) are, name for name and byte for
 * byte, the parts written afresh,
 * after every commit of any sequence of checks (state changes, failures, departures, targets coming
 * back, unreadable checks), traffic, silences, restores from the stored bytes (with the old
 * value's cache carried over, or not), stores restarted (over what they wrote, or over nothing)
 * and changes made to the targets behind the registry's back; and a commit through the store
 * writes the same changelog, byte for byte, as one written afresh.
 */
class FleetEncoderCacheProperties {

    private static final long T0 = 1_772_548_200_000L;
    private static final TargetState[] STATES = {TargetState.healthy, TargetState.unhealthy, TargetState.initial,
        TargetState.healthy, TargetState.draining, TargetState.unused};
    private static final CheckOutcome[] OUTCOMES = {CheckOutcome.pass, CheckOutcome.timeout, CheckOutcome.http_status,
        CheckOutcome.pass};

    private final MonitoredCodec<FleetState> whole = TopologyFactory.fleetCodec();
    private final FleetEncoder cached = new FleetEncoder(whole);
    private final FleetEncoder fresh = new FleetEncoder(whole, false);
    private final MonitorHarness<FleetState, FleetInput> monitor = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()),
            Settings.defaults().with(Map.of("alert.cool-down", "0s")));

    /**
     * Each step is one number: its kind (the lowest digit, base 10), the target (next, base 6) and
     * a variant (the rest): what state, outcome, zone and address a check reports, how long a
     * silence is, whether a restore keeps the cache, whether restarted stores keep their changelogs.
     */
    @Property(tries = 200)
    void cachedPartsAreThePartsWrittenAfresh(@ForAll @Size(max = 400) List<@IntRange(min = 0, max = 5_999) Integer> steps) {
        Monitored<FleetState> m = monitor.newKey("tg", null);
        long now = T0;
        int commits = 0;
        for (int step : steps) {
            int kind = step % 10;
            int target = step / 10 % 6;
            int variant = step / 60;
            now += 1_000 + variant % 7 * 1_000L;
            switch (kind) {
                case 0, 1, 2 -> feed(m, check(target, variant, now));
                case 3 -> monitor.feed(m, new UnreadableCheck(new TargetSeen("tg", "i-" + target, now, "health")), now);
                case 4 -> serve(m, target, variant, now);
                case 5 -> {
                    now += variant * 30_000L;
                    monitor.reach(m, now);
                }
                case 6 -> m = restored(m, variant % 2 == 0);
                case 7 -> changeBehindTheRegistry(m, target, variant);
                case 8 -> restartStores(variant % 2 == 0);
                default -> {
                    commit(m);
                    commits++;
                }
            }
        }
        commit(m);
        assertThat(commits).isLessThanOrEqualTo(steps.size());
    }

    /** Each encoder's own store over its own changelog, as a commit writes them. */
    private SortedBytesStore cachedChangelog = new SortedBytesStore();
    private SortedBytesStore freshChangelog = new SortedBytesStore();
    private WriteBehindStore<Monitored<FleetState>> cachedStore = store(cachedChangelog, cached);
    private WriteBehindStore<Monitored<FleetState>> freshStore = store(freshChangelog, fresh);

    private WriteBehindStore<Monitored<FleetState>> store(SortedBytesStore changelog, FleetEncoder encoder) {
        return WriteBehindStore.over(changelog.store(), new PartedMonitoredCodec<>(whole, new FleetParts(), encoder));
    }

    /** The stores restarted, over their changelogs (which hold what they wrote) or over empty ones. */
    private void restartStores(boolean keepChangelogs) {
        if (!keepChangelogs) {
            cachedChangelog = new SortedBytesStore();
            freshChangelog = new SortedBytesStore();
        }
        cachedStore = store(cachedChangelog, cached);
        freshStore = store(freshChangelog, fresh);
    }

    /**
     * A commit: the parts the cached encoder writes are those written afresh, and so are the
     * writes each store makes (a history chunk given by its hash alone is not written, as an
     * unchanged part's bytes are not) and what each changelog then holds.
     */
    private void commit(Monitored<FleetState> m) {
        // the store's commit first: encoding the parts whole would bring the chunks' hashes up to date before it
        cachedStore.put("tg", m);
        cachedStore.flushCache();
        freshStore.put("tg", m);
        freshStore.flushCache();
        assertThat(cachedChangelog.writes).as("the changelog's writes").isEqualTo(freshChangelog.writes);
        assertThat(cachedChangelog.keys()).isEqualTo(freshChangelog.keys());
        freshChangelog.entries.forEach((key, bytes) -> assertThat(HexFormat.of().formatHex(cachedChangelog.entries.get(key)))
                .as("stored %s", SortedBytesStore.text(key)).isEqualTo(HexFormat.of().formatHex(bytes)));
        assertSameParts(m);
    }

    private void feed(Monitored<FleetState> m, HealthCheckResult r) {
        monitor.feed(m, new Check(r), r.getTs().toEpochMilli());
    }

    private static HealthCheckResult check(int target, int variant, long ts) {
        CheckOutcome outcome = OUTCOMES[variant % OUTCOMES.length];
        HealthCheckResult r = FleetEncoderTest.check("i-" + target, target + 3 * (variant / 12 % 2), ts,
                outcome == CheckOutcome.pass, STATES[variant / 4 % STATES.length]);
        r.setOutcome(outcome);
        r.setAz("us-east-1" + "abc".charAt((target + variant / 24) % 3));
        return r;
    }

    /** A second of access logs: targets up to {@code target} serve, their latencies by the variant. */
    private void serve(Monitored<FleetState> m, int target, int variant, long at) {
        Map<String, TargetCount> byTarget = new LinkedHashMap<>();
        for (int i = 0; i <= target; i++) {
            Histogram latency = LatencySketch.create();
            LatencySketch.record(latency, 20 + variant % 50 + i);
            long failed = (variant + i) % 3 == 0 ? 1 : 0;
            byTarget.put("10.0.0." + i + ":8080", new TargetCount(5L, 5 - failed, 5 * 24.0, LatencySketch.encode(latency)));
        }
        long requests = 5L * byTarget.size();
        TargetTraffic traffic = new TargetTraffic("tg", "app/web/1", at, requests, requests, 0L, 0L, byTarget, null);
        monitor.feed(m, new TargetSummary(traffic), at);
    }

    /** The value read back from its stored bytes, as after a restart; the old value's cache carried over when asked. */
    private Monitored<FleetState> restored(Monitored<FleetState> m, boolean keepCache) {
        Monitored<FleetState> back = whole.decode(whole.encode(m));
        if (keepCache) {
            back.encoded = m.encoded;
        }
        return back;
    }

    /** A field of a target set directly, as no code of the registry does: the cache must see it all the same. */
    private static void changeBehindTheRegistry(Monitored<FleetState> m, int target, int variant) {
        TargetRecord t = m.state == null ? null : m.state.registry.targets.get("i-" + target);
        if (t == null) {
            return;
        }
        switch (variant % 6) {
            case 0 -> t.zone = "us-east-1" + "xyz".charAt(variant % 3);
            case 1 -> t.state = new String(t.state == null ? "unknown" : t.state);
            case 2 -> t.firstSeen += variant;
            case 3 -> t.lastStatusCode = variant % 2 == 0 ? null : 500 + variant % 4;
            case 4 -> t.sawInitial = !t.sawInitial;
            default -> t.ip = t.ip == null ? "10.9.9.9" : null;
        }
    }

    private void assertSameParts(Monitored<FleetState> m) {
        Map<String, byte[]> expected = fresh.encode(m);
        Map<String, byte[]> actual = cached.encode(m);
        Map<String, byte[]> forCommit = cached.encodeForCommit(m);
        assertThat(List.copyOf(forCommit.keySet())).as("part names for a commit, in order").isEqualTo(List.copyOf(expected.keySet()));
        forCommit.forEach((name, bytes) -> assertThat(bytes == null ? name.startsWith("h/") : HexFormat.of().formatHex(bytes)
                .equals(HexFormat.of().formatHex(expected.get(name)))).as("part '%s' for a commit: its bytes, or a history chunk's hash", name).isTrue());
        assertThat(List.copyOf(actual.keySet())).as("part names, in order").isEqualTo(List.copyOf(expected.keySet()));
        List<String> differ = new ArrayList<>();
        expected.forEach((name, bytes) -> {
            if (!HexFormat.of().formatHex(bytes).equals(HexFormat.of().formatHex(actual.get(name)))) {
                differ.add(name);
            }
        });
        assertThat(differ).as("parts whose cached bytes are not the fresh ones").isEmpty();
    }
}
