package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.KeyMonitor;
import io.hcwatch.alert.LifecycleSettings;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.avro.internal.TargetSeen;
import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.feed.FeedDetection;
import io.hcwatch.detect.feed.GapSettings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.flood.FloodDetection;
import io.hcwatch.detect.flood.FloodSettings;
import io.hcwatch.detect.slots.SlotDetection;
import io.hcwatch.detect.slots.SlotSettings;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.CheckBatch;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.input.FleetInput;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.HostInput;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.input.Summary;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.parse.AlbAccessLogParser;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.HaproxyStatsJson;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.traffic.TrafficCombiner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bytes hcwatch leaves on its repartition topics and in its stores, pinned: every envelope kind,
 * a pending store's value, the monitor clock's entries and each monitor's state, built from the
 * same inputs, must encode to the bytes in {@code golden/internal-bytes.txt}, and those bytes must
 * decode to values that encode back to them. A release that writes what the last one wrote, and
 * reads it back, is one an instance can be upgraded to and rolled back from with its state and
 * in-flight records. A deliberate change of layout (a new schema version, a state migration)
 * rewrites the file: run this test with {@code -Dhcwatch.golden.write=true} and commit the diff with it.
 */
class InternalBytesGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/internal-bytes.txt");
    /** This file as the previous release (main at ce19ab3) wrote it: never rewritten. */
    private static final Path PREVIOUS = Path.of("src/test/resources/golden/previous-release/internal-bytes.txt");
    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private static final HexFormat HEX = HexFormat.of();

    private final Map<String, byte[]> actual = new LinkedHashMap<>();
    private final Map<String, StateCodec<?>> codecs = new LinkedHashMap<>();

    InternalBytesGoldenTest() {
        envelopes(actual, codecs);
        pending(actual, codecs);
        clock(actual, codecs);
        monitors(actual, codecs);
    }

    @Test
    void everyInternalRecordAndStoreValueEncodesToThePinnedBytesAndReadsBack() throws IOException {

        if (Boolean.getBoolean("hcwatch.golden.write")) {
            StringBuilder out = new StringBuilder("# name hex (InternalBytesGoldenTest; rewrite with -Dhcwatch.golden.write=true)\n");
            actual.forEach((name, bytes) -> out.append(name).append(' ').append(HEX.formatHex(bytes)).append('\n'));
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, out.toString());
        }
        Map<String, byte[]> golden = read(GOLDEN);
        assertThat(golden.keySet()).containsExactlyElementsOf(actual.keySet());
        for (Map.Entry<String, byte[]> e : actual.entrySet()) {
            assertThat(HEX.formatHex(e.getValue())).as(e.getKey()).isEqualTo(HEX.formatHex(golden.get(e.getKey())));
            assertThat(HEX.formatHex(roundTrip(codecs.get(e.getKey()), golden.get(e.getKey()))))
                    .as(e.getKey() + " read back and written again").isEqualTo(HEX.formatHex(golden.get(e.getKey())));
        }
    }

    /**
     * An upgrade: what the previous release left in its stores and on its repartition topics (its
     * golden file, {@code golden/previous-release/}, never rewritten) is read by this release as the
     * same values this release writes: the same bytes where the layout did not change, this
     * release's layout where it did (the clock's entries and the pending store, versioned since).
     */
    @Test
    void everyRecordAndStoreValueThePreviousReleaseWroteReadsAsTheSameValueHere() throws IOException {
        Map<String, byte[]> previous = read(PREVIOUS);
        assertThat(previous.keySet()).isSubsetOf(actual.keySet()).contains("pending", "clock/header", "state/fleet");
        for (Map.Entry<String, byte[]> e : previous.entrySet()) {
            assertThat(HEX.formatHex(roundTrip(codecs.get(e.getKey()), e.getValue())))
                    .as(e.getKey() + " of the previous release, read and written here").isEqualTo(HEX.formatHex(actual.get(e.getKey())));
        }
    }

    @SuppressWarnings("unchecked")
    private static <V> byte[] roundTrip(StateCodec<V> codec, byte[] bytes) {
        return codec.encode(codec.decode(bytes));
    }

    private static Map<String, byte[]> read(Path file) throws IOException {
        Map<String, byte[]> golden = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split(" ", 2);
                golden.put(parts[0], HEX.parseHex(parts[1]));
            }
        }
        return golden;
    }

    /** Serde as a store codec, so every entry is checked the same way. */
    private static StateCodec<Envelope> envelopeCodec() {
        EnvelopeSerde serde = new EnvelopeSerde();
        return new StateCodec<>() {
            @Override
            public byte[] encode(Envelope value) {
                return serde.serialize("t", value);
            }

            @Override
            public Envelope decode(byte[] bytes) {
                return serde.deserialize("t", bytes);
            }
        };
    }

    private static void envelopes(Map<String, byte[]> out, Map<String, StateCodec<?>> codecs) {
        StateCodec<Envelope> codec = envelopeCodec();
        Map<String, Envelope> all = new LinkedHashMap<>();
        all.put("envelope/health_check", new Envelope(new Check(check("i-1", T0 + 1_200, false)), "health-2"));
        all.put("envelope/backend_event", new Envelope(new BackendNotice(backendEvent()), "haproxy-0"));
        all.put("envelope/lb_config_target_group", new Envelope(new LoadBalancerConfig(targetGroupConfig()), "config-0"));
        all.put("envelope/lb_config_frontend", new Envelope(new LoadBalancerConfig(frontendConfig()), "config-1"));
        for (Summary summary : summaries().drainAll()) {
            all.put("envelope/" + summary.avro().getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + "/"
                    + all.size(), new Envelope(summary, "haproxy-1"));
        }
        all.put("envelope/health_checks", new Envelope(new CheckBatch(List.of(check("i-1", T0, true),
                check("i-2", T0 + 300, false))), "alb-health-0"));
        all.put("envelope/progress", Envelope.progress("alb-3", T0 + 9_000, true));
        all.put("envelope/target_seen", new Envelope(new UnreadableCheck(new TargetSeen("prod-web-tg", "i-9", T0 + 500, "health")),
                "health-0"));
        all.put("envelope/haproxy_stats", new Envelope(new Poll(poll()), "haproxy-stats-0"));
        all.put("envelope/feed_seen", new Envelope(new FeedHeartbeat(new FeedSeen("alb", "app/prod-web/50dc6c495c0c9188", T0)),
                "alb-1"));
        all.put("envelope/no_upstream", Envelope.of(new BackendNotice(backendEvent())));
        all.forEach((name, e) -> {
            out.put(name, codec.encode(e));
            codecs.put(name, codec);
        });
    }

    private static void pending(Map<String, byte[]> out, Map<String, StateCodec<?>> codecs) {
        TrafficCombiner combiner = summaries();
        combiner.addCheck(check("i-1", T0 + 100, true));
        combiner.addCheck(check("i-2", T0 + 200, false));
        TrafficCombinerCodec codec = new TrafficCombinerCodec(Settings.defaults().integer("flood.capacity"));
        out.put("pending", codec.encode(combiner));
        codecs.put("pending", codec);
    }

    private static void clock(Map<String, byte[]> out, Map<String, StateCodec<?>> codecs) {
        MonitorClock<Envelope> clock = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        MonitorClock.Stage<Envelope> none = new MonitorClock.Stage<>() {
            @Override
            public void apply(String key, Envelope event, long time, boolean late) {
            }

            @Override
            public void step(long at) {
            }
        };
        clock.report("health-0", T0, false, 0, none);
        clock.report("alb-1", T0 + 2_000, true, 0, none);
        clock.offer("prod-web-tg", new Envelope(new CheckBatch(List.of(check("i-1", T0 + 4_000, true))), "alb-health-0"),
                T0 + 4_000, 0, none);
        SavedClock.Codec codec = new SavedClock.Codec();
        out.put("clock/header", codec.encode(new SavedClock.LiveHeader(clock)));
        codecs.put("clock/header", codec);
        for (MonitorClock.Held<Envelope> h : clock.held()) {
            out.put("clock/" + SavedClock.heldKey(h), codec.encode(new SavedClock.HeldRecord(h)));
            codecs.put("clock/" + SavedClock.heldKey(h), codec);
        }
    }

    private static void monitors(Map<String, byte[]> out, Map<String, StateCodec<?>> codecs) {
        Settings settings = Settings.defaults();
        LifecycleSettings lifecycle = LifecycleSettings.from(settings);
        long step = settings.millis("eval.step");
        List<Summary> drained = summaries().drainAll();

        KeyMonitor<io.hcwatch.detect.fleet.FleetState, FleetInput> fleet =
                new KeyMonitor<>(new FleetDetection(FleetSettings.from(settings)), lifecycle, step);
        Monitored<io.hcwatch.detect.fleet.FleetState> tg = fleet.newKey("prod-web-tg", new LoadBalancerConfig(targetGroupConfig()));
        fleet.apply(tg, new LoadBalancerConfig(targetGroupConfig()), T0);
        for (int s = 0; s < 40; s += 10) {
            fleet.apply(tg, List.of(new Check(check("i-1", T0 + s * 1000L, true)), new Check(check("i-2", T0 + s * 1000L + 5, s < 20))),
                    new long[] {T0 + s * 1000L, T0 + s * 1000L + 5});
        }
        fleet.apply(tg, new UnreadableCheck(new TargetSeen("prod-web-tg", "i-9", T0 + 41_000, "health")), T0 + 41_000);
        for (Summary r : drained) {
            if (r instanceof TargetSummary t && t.traffic().getTargetGroup().equals("prod-web-tg")) {
                fleet.apply(tg, t, T0 + 42_000);
            }
        }
        fleet.apply(tg, new BackendNotice(backendEvent()), T0 + 43_000);
        out.put("state/fleet", TopologyFactory.fleetCodec().encode(tg));
        codecs.put("state/fleet", TopologyFactory.fleetCodec());

        KeyMonitor<io.hcwatch.detect.slots.HostState, HostInput> host =
                new KeyMonitor<>(new SlotDetection(SlotSettings.from(settings)), lifecycle, step);
        Monitored<io.hcwatch.detect.slots.HostState> lb1 = host.newKey("lb1", new LoadBalancerConfig(frontendConfig()));
        host.apply(lb1, new LoadBalancerConfig(frontendConfig()), T0);
        for (Summary r : drained) {
            if (r instanceof FrontendSummary t) {
                host.apply(lb1, t, t.eventTime());
            }
        }
        host.apply(lb1, new Poll(poll()), T0 + 1_300);
        out.put("state/host", TopologyFactory.hostCodec().encode(lb1));
        codecs.put("state/host", TopologyFactory.hostCodec());

        KeyMonitor<io.hcwatch.detect.flood.FloodState, ClientSummary> flood =
                new KeyMonitor<>(new FloodDetection(FloodSettings.from(settings)), lifecycle, step);
        for (Summary r : drained) {
            if (r instanceof ClientSummary c && c.traffic().getPlatform().equals("haproxy")) {
                Monitored<io.hcwatch.detect.flood.FloodState> scope = flood.newKey("haproxy/" + c.traffic().getScope(), c);
                flood.apply(scope, c, c.eventTime());
                out.put("state/flood", TopologyFactory.floodCodec().encode(scope));
                codecs.put("state/flood", TopologyFactory.floodCodec());
            }
        }

        KeyMonitor<io.hcwatch.detect.feed.FeedState, FeedHeartbeat> feed =
                new KeyMonitor<>(new FeedDetection(GapSettings.from(settings)), lifecycle, step, Long.MAX_VALUE);
        FeedHeartbeat seen = new FeedHeartbeat(new FeedSeen("haproxy", "lb1", T0));
        Monitored<io.hcwatch.detect.feed.FeedState> lb1Feed = feed.newKey(FeedDetection.key("haproxy", "lb1"), seen);
        feed.apply(lb1Feed, seen, T0);
        feed.apply(lb1Feed, FeedDetection.pollOf("lb1", T0 + 1_000), T0 + 1_000);
        feed.apply(lb1Feed, new FeedHeartbeat(new FeedSeen("haproxy", "lb1", T0 + 2_000)), T0 + 2_000);
        out.put("state/feed", TopologyFactory.feedCodec().encode(lb1Feed));
        codecs.put("state/feed", TopologyFactory.feedCodec());
    }

    /** One second of ALB and HAProxy traffic, summed as an ingest sums it (read by the real parsers). */
    private static TrafficCombiner summaries() {
        TrafficCombiner combiner = new TrafficCombiner(Settings.defaults().integer("flood.capacity"));
        AlbAccessLogParser alb = new AlbAccessLogParser();
        for (int i = 0; i < 6; i++) {
            String line = "https 2026-03-03T14:30:00." + (100 + i * 111) + "000Z app/prod-web/50dc6c495c0c9188 203.0.113."
                    + (7 + i % 2) + ":5312" + i + " 10.0.1." + (17 + i % 3) + ":8080 0.001 0." + (212 + i * 40)
                    + " 0.000 " + (i == 5 ? 502 : 200) + " 200 412 3091 \"GET https://shop.example.net:443/api/cart?id=" + i
                    + " HTTP/1.1\" \"Mozilla/5.0\" TLS_AES_128_GCM_SHA256 TLSv1.3 arn:aws:elasticloadbalancing:us-east-1:"
                    + "111122223333:targetgroup/prod-web-tg/6d0ecf831eec9f09 \"Root=1-65e48a2f-00000000000000000000000" + i
                    + "\" \"shop.example.net\" \"arn:aws:acm:us-east-1:111122223333:certificate/1\" 0"
                    + " 2026-03-03T14:29:59.900000Z \"forward\" \"-\" \"-\" \"10.0.1." + (17 + i % 3) + ":8080\" \"200\" \"-\" \"-\"";
            combiner.addAlb(value(alb.traffic().parse(line)));
        }
        HaproxyLogParser haproxy = new HaproxyLogParser(Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));
        for (int i = 0; i < 5; i++) {
            String line = "Mar  3 14:30:00 lb1 haproxy[4242]: 198.51.100." + (9 + i % 2) + ":4000" + i
                    + " [03/Mar/2026:14:30:00." + (100 + i * 150) + "] fe_web app/web" + (1 + i % 2) + " 0/" + (i == 4 ? 1000 : 0)
                    + "/1/" + (20 + i) + "/" + (21 + i + (i == 4 ? 1000 : 0)) + " " + (i == 3 ? 503 : 200) + " 3091 - - "
                    + (i == 4 ? "PT--" : "----") + " 180/150/12/4/0 0/0 \"GET /api/item/" + i + " HTTP/1.1\"";
            combiner.addHaproxy(((HaproxyLine) value(haproxy.parse(line))).request());
        }
        return combiner;
    }

    private static <T> T value(ParseResult<T> result) {
        assertThat(result).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<T>) result).value();
    }

    private static HealthCheckResult check(String target, long ts, boolean ok) {
        return value(new HealthCheckResultJson().parse(("{\"ts\":\"" + Instant.ofEpochMilli(ts) + "\",\"source\":\"alb\","
                + "\"lb\":\"app/prod-web/50dc6c495c0c9188\",\"target_group\":\"prod-web-tg\",\"target\":\"" + target + "\","
                + "\"target_ip\":\"10.0.1.17\",\"port\":8080,\"az\":\"us-east-1a\",\"outcome\":\"" + (ok ? "pass" : "timeout")
                + "\",\"latency_ms\":" + (ok ? 12 : 2140) + ",\"state\":\"" + (ok ? "healthy" : "unhealthy") + "\""
                + (ok ? "" : ",\"reason\":\"Target.Timeout\"") + ",\"check\":{\"path\":\"/health\",\"interval_ms\":10000,"
                + "\"timeout_ms\":2000,\"healthy_threshold\":3,\"unhealthy_threshold\":2}}").getBytes(StandardCharsets.UTF_8)));
    }

    private static BackendEvent backendEvent() {
        HaproxyLogParser haproxy = new HaproxyLogParser(Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));
        return ((BackendNotice) value(haproxy.parse("Mar  3 14:30:01 lb1 haproxy[4242]: backend app has no server available!")))
                .event();
    }

    private static LbConfig targetGroupConfig() {
        return value(new LbConfigJson().parse(("{\"kind\":\"target_group\",\"id\":\"prod-web-tg\",\"lb\":\"app/prod-web/50dc6c495c0c9188\","
                + "\"cross_zone\":true,\"registered_targets\":3,\"unhealthy_state_routing\":{\"min_healthy_count\":1,"
                + "\"min_healthy_percent\":null},\"dns_failover\":{\"min_healthy_count\":1,\"min_healthy_percent\":null},"
                + "\"health_check\":{\"path\":\"/health\",\"interval_ms\":10000,\"timeout_ms\":2000,\"healthy_threshold\":3,"
                + "\"unhealthy_threshold\":2},\"ts\":\"2026-03-03T14:30:00Z\"}").getBytes(StandardCharsets.UTF_8)));
    }

    private static LbConfig frontendConfig() {
        return value(new LbConfigJson().parse(("{\"kind\":\"haproxy_frontend\",\"id\":\"lb1/fe_web\",\"host\":\"lb1\","
                + "\"frontend\":\"fe_web\",\"maxconn\":200,\"ts\":\"2026-03-03T14:30:00Z\"}").getBytes(StandardCharsets.UTF_8)));
    }

    private static HaproxyStats poll() {
        return value(new HaproxyStatsJson().parse(("{\"ts\":\"2026-03-03T14:30:01.300Z\",\"host\":\"lb1\",\"curr_conns\":181,"
                + "\"maxconn\":1000,\"frontends\":[{\"name\":\"fe_web\",\"status\":\"OPEN\",\"scur\":180,\"slim\":200,"
                + "\"smax\":190,\"rate\":12}]}").getBytes(StandardCharsets.UTF_8)));
    }
}
