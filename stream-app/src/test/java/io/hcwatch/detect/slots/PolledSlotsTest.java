package io.hcwatch.detect.slots;

import static io.hcwatch.detect.Judging.severities;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.SlotHolder;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Judging;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.topology.TopologyFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * socket_slot_exhaustion from the HAProxy collector's polls (haproxy-stats): a frontend whose scur
 * stays at or above 80% of its slim in every poll across the 10s sustain window warns, 95% is
 * critical, with no log line needed (a tarpit logs nothing until it ends). Polls arrive 300 ms
 * into each second from T0; series read "200*4 100 200*5", one poll a second, "idle" for a second
 * without a poll.
 */
class PolledSlotsTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private final SlotDetection detection = new SlotDetection(SlotSettings.from(Settings.defaults()));
    private final SocketSlotDetector detector = new SocketSlotDetector(SlotSettings.from(Settings.defaults()));
    private final SlotHolderDetector holders = new SlotHolderDetector(SlotSettings.from(Settings.defaults()));
    private final HostState host = detection.newState("lb1", null);

    private static List<Integer> series(String spec) {
        return SocketSlotDetectorTest.series(spec);
    }

    private static HaproxyStats poll(long at, String frontend, int scur, Integer slim, Integer currConns, Integer maxconn) {
        List<FrontendStats> frontends = frontend == null ? List.of()
                : List.of(FrontendStats.newBuilder().setName(frontend).setScur(scur).setSlim(slim).setSmax(scur).setRate(0).build());
        return HaproxyStats.newBuilder().setTs(Instant.ofEpochMilli(at)).setHost("lb1").setCurrConns(currConns).setMaxconn(maxconn)
                .setFrontends(new ArrayList<>(frontends)).setBackends(new ArrayList<>()).build();
    }

    /** {@code frontend}'s scur polled each second from T0 with session limit {@code slim}. */
    private void polls(String frontend, String scur, Integer slim) {
        List<Integer> values = series(scur);
        for (int s = 0; s < values.size(); s++) {
            if (values.get(s) != null) {
                long at = T0 + s * 1000L + 300;
                detection.apply(host, new Poll(poll(at, frontend, values.get(s), slim, null, null)), at);
            }
        }
    }

    private void config(ConfigKind kind, String frontend, int maxconn) {
        detection.apply(host, new LoadBalancerConfig(LbConfig.newBuilder().setKind(kind).setId(frontend == null ? "lb1" : "lb1/" + frontend).setHost("lb1")
                .setFrontend(frontend).setMaxconn(maxconn).setTs(Instant.ofEpochMilli(T0)).build()), T0);
    }

    /** One second of logged requests on {@code frontend}: {@code requests} from {@code client}, each holding a slot {@code heldMs}. */
    private void logged(String frontend, long at, int feconn, String client, long requests, long heldMs, Map<String, Long> terminations) {
        long waited = terminations.getOrDefault("PT", 0L) + terminations.getOrDefault("sQ", 0L);
        List<HeavyHitter> holding = new ArrayList<>(List.of(new HeavyHitter(client, requests * heldMs, 0L)));
        detection.apply(host, new FrontendSummary(new HaproxyTraffic("lb1", frontend, at, requests, feconn, feconn, 0, 0L,
                terminations.getOrDefault("PT", 0L) * heldMs, new HashMap<>(terminations), new ArrayList<>(), new HashMap<>(),
                requests * heldMs, waited, holding)), at);
    }

    private List<Finding> judge(long now) {
        return Judging.judgePurely(detector, host, now, TopologyFactory.hostCodec());
    }

    @ParameterizedTest(name = "slim {0}, scur {1}, judged T0+{2}ms -> {3}: {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # slim | scur each second       | judged at | severity | why
            200    | 200*11                 | 10000     | CRITICAL | at its limit for the window: full before any request ended
            200    | 160*11                 | 10000     | WARNING  | 80%
            200    | 159*11                 | 10000     | none     | just under 80%
            200    | 189*11                 | 10000     | WARNING  | just under 95%
            200    | 200*9                  | 9000      | none     | polled full for only 9s
            200    | 200*5 150 200*5        | 10000     | none     | one poll under 80%
            200    | 100 200*10             | 10000     | none     | the low poll was in force as the window began
            200    | 100 200*11             | 11000     | CRITICAL | the low poll was replaced before the window began
            200    | 200*5 idle*2 200*4      | 10000     | CRITICAL | a missed poll: the one before holds until the next
            200    | 200*11                 | 25000     | none     | no poll inside the window
            0      | 200*11                 | 10000     | none     | no session limit polled and none configured: no limit in sight
            """)
    void aFrontendAtItsPolledLimitForTheSustainWindow(int slim, String scur, long judgedAt, String severity, String why) {
        polls("web", scur, slim == 0 ? null : slim);
        List<Finding> findings = judge(T0 + judgedAt);
        assertThat(findings).as(why).extracting(Finding::severity).containsExactlyElementsOf(severities(severity));
        assertThat(findings).allSatisfy(f -> assertThat(f.details()).containsEntry("maxconn", String.valueOf(slim))
                .containsEntry("maxconn_inferred", "false").containsEntry("sessions_from", "haproxy-stats"));
    }

    @Test
    void withoutAPolledLimitTheConfiguredMaxconnApplies() {
        config(ConfigKind.haproxy_frontend, "web", 250);
        polls("web", "200*11", null);
        assertThat(judge(T0 + 10_000)).singleElement().satisfies(f -> assertThat(f.details())
                .containsEntry("feconn", "200").containsEntry("maxconn", "250").containsEntry("sessions_ratio", "0.80"));
    }

    @Test
    void thePolledLimitIsWhatHaproxyRunsWithWhateverTheConfigSays() {
        config(ConfigKind.haproxy_frontend, "web", 5000);
        polls("web", "200*11", 200);
        assertThat(judge(T0 + 10_000)).extracting(f -> f.details().get("maxconn")).containsExactly("200");
    }

    @Test
    void pollsThatCoverTheWindowOverruleTheLogs() {
        config(ConfigKind.haproxy_frontend, "web", 200);
        polls("web", "40*11", 200);
        for (int s = 1; s <= 10; s++) {
            logged("web", T0 + s * 1000L, 200, "203.0.113.9", 20, 10_000, Map.of("PT", 20L));
        }
        assertThat(judge(T0 + 10_000)).as("logged feconn is the count when each request began; the poll is the count now").isEmpty();
    }

    @Test
    void withoutPollsCoveringTheWindowTheLogsDecide() {
        config(ConfigKind.haproxy_frontend, "web", 200);
        polls("web", "idle*6 200*5", 200);
        for (int s = 0; s <= 10; s++) {
            logged("web", T0 + s * 1000L, 200, "203.0.113.9", 20, 10_000, Map.of("PT", 20L));
        }
        assertThat(judge(T0 + 10_000)).singleElement().satisfies(f -> assertThat(f.details())
                .containsEntry("sessions_from", "logs").containsEntry("maxconn", "200"));
    }

    @Test
    void theFindingNamesTheHoldersOnceTheFirstTarpitsHaveEnded() {
        polls("web", "200*11", 200);
        // tarpits of 5s: the flooder's first requests end and are logged from T0+5s
        for (int s = 5; s <= 10; s++) {
            logged("web", T0 + s * 1000L, 200, "127.0.0.1", 40, 5_000, Map.of("PT", 40L));
            logged("web", T0 + s * 1000L, 200, "127.0.0.2", 1, 20, Map.of("--", 1L));
        }
        assertThat(judge(T0 + 10_000)).singleElement().satisfies(f -> {
            assertThat(f.details()).containsEntry("slot_holders", "127.0.0.1=100%,127.0.0.2=0%");
            assertThat(f.summary()).isEqualTo("HAProxy lb1 frontend web is running out of connection slots: scur 200/200 (100%,"
                    + " polled) for 10s; tarpit holds ~120 sockets (98% of requests tarpitted); slots held by 127.0.0.1=100%,127.0.0.2=0%");
        });
        assertThat(Judging.judgePurely(holders, host, T0 + 10_000, TopologyFactory.hostCodec()))
                .extracting(f -> f.scope().client()).containsExactly("127.0.0.1");
    }

    @Test
    void theFirstFindingNamesTheClientsHoldingTheSessionsNowWhenThePollsListedThem() {
        polls("web", "200*10", 200);
        // the collector listed fe_web's sessions (show sess) at its last poll: no tarpit has ended, nothing is logged
        long at = T0 + 10_300;
        HaproxyStats listed = poll(at, "web", 200, 200, null, null);
        listed.getFrontends().get(0).setHolders(new ArrayList<>(List.of(new SlotHolder("127.0.0.1", 180),
                new SlotHolder("2001:db8:1:2::/64", 15))));
        listed.getFrontends().get(0).setSessionsListed(200);
        detection.apply(host, new Poll(listed), at);

        assertThat(judge(T0 + 10_500)).singleElement().satisfies(f -> {
            assertThat(f.details()).containsEntry("slot_holders", "127.0.0.1=180 sessions (90%),2001:db8:1:2::/64=15 sessions (8%)")
                    .containsEntry("slot_holders_from", "show sess at 2026-03-03T10:00:10.300Z (200 sessions)")
                    .doesNotContainKey("slot_holders_logged");
            assertThat(f.summary()).endsWith("; slots held by 127.0.0.1=180 sessions (90%),2001:db8:1:2::/64=15 sessions (8%)");
        });
        assertThat(judge(T0 + 21_000)).as("holders listed before the window say nothing about it").isEmpty();
    }

    @Test
    void holdersListedLongAgoAreForgottenWithThePollsAndTheStateWithoutThemIsUnchanged() throws Exception {
        polls("web", "200*3", 200);
        assertThat(host.polledHolders).as("state without listed holders has no such field").isNull();
        HaproxyStats listed = poll(T0 + 3_300, "web", 200, 200, null, null);
        listed.getFrontends().get(0).setHolders(new ArrayList<>(List.of(new SlotHolder("127.0.0.1", 1))));
        detection.apply(host, new Poll(listed), T0 + 3_300);
        assertThat(host.polledHolders).containsKey("web");

        detection.stepped(host, T0 + 3_300 + SlotSettings.from(Settings.defaults()).ringSeconds() * 1000L + 1_000);

        assertThat(host.polledHolders).isNull();
    }

    @ParameterizedTest(name = "Maxconn {0}, CurrConns {1} -> {2}: {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # Maxconn | CurrConns each second | severity | why
            4000      | 3200*11               | WARNING  | 80% of the process limit
            4000      | 3200*5 3100 3200*5    | none     | one poll under 80%
            4000      | 3800*11               | CRITICAL | 95%
            0         | 3900*11               | none     | no process limit polled or configured
            """)
    void theProcessAtItsPolledMaxconnIsOneFindingForTheHost(int maxconn, String currConns, String severity, String why) {
        List<Integer> values = series(currConns);
        for (int s = 0; s < values.size(); s++) {
            long at = T0 + s * 1000L + 300;
            detection.apply(host, new Poll(poll(at, null, 0, null, values.get(s), maxconn == 0 ? null : maxconn)), at);
        }
        List<Finding> findings = judge(T0 + 10_000);
        assertThat(findings).as(why).extracting(Finding::severity).containsExactlyElementsOf(severities(severity));
        assertThat(findings).allSatisfy(f -> {
            assertThat(f.dedupKey()).isEqualTo("socket_slot_exhaustion/lb1/process");
            assertThat(f.details()).containsEntry("process_maxconn", String.valueOf(maxconn)).containsEntry("sessions_from", "haproxy-stats");
        });
    }

    @Test
    void aFrontendNoLongerPolledIsForgottenOnceItsRingIsStale() {
        polls("old", "10*3", 200);
        detection.stepped(host, T0 + 10_000);
        assertThat(host.polled).containsKey("old");
        detection.stepped(host, T0 + 60_000);
        assertThat(host.polled).doesNotContainKey("old");
    }
}
