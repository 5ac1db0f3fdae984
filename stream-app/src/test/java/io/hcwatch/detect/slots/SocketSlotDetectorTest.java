package io.hcwatch.detect.slots;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.Judging.severities;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Judging;
import io.hcwatch.detect.Severity;
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
 * socket_slot_exhaustion: feconn/maxconn (or the process's actconn/maxconn) ≥ 80% in every second
 * with traffic across the 10s sustain window warns; ≥ 95%, or anything rejected or queued out,
 * is critical. Host lb1's seconds start at T0; series read "1600*4 idle 1600*5": a value for
 * each second, idle for a second without requests.
 */
class SocketSlotDetectorTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private final SlotDetection detection = new SlotDetection(SlotSettings.from(Settings.defaults()));
    private final SocketSlotDetector detector = new SocketSlotDetector(SlotSettings.from(Settings.defaults()));
    private final HostState host = detection.newState("lb1", null);

    /** One value per second from T0, null for an idle second. */
    static List<Integer> series(String spec) {
        List<Integer> values = new ArrayList<>();
        for (String token : spec.trim().split(" +")) {
            String[] vn = token.split("\\*");
            for (int i = 0; i < (vn.length > 1 ? Integer.parseInt(vn[1]) : 1); i++) {
                values.add(vn[0].equals("idle") ? null : Integer.valueOf(vn[0]));
            }
        }
        return values;
    }

    /** One second of a frontend's traffic; requests that wait are the queued-out (sQ) and tarpitted (PT) ones. */
    private void traffic(String frontend, long at, long requests, int feconn, int actconn,
                         Map<String, Long> terminations, long tarpitMs) {
        long waited = terminations.getOrDefault("sQ", 0L) + terminations.getOrDefault("PT", 0L);
        detection.apply(host, new FrontendSummary(new HaproxyTraffic("lb1", frontend, at, requests, feconn, actconn, 0, 0L, tarpitMs,
                new HashMap<>(terminations), new ArrayList<>(), new HashMap<>(), tarpitMs, waited, new ArrayList<>())), at);
    }

    /** {@code frontend}'s sessions each second from T0 (actconn just above), 500 requests a second when not idle. */
    private void sessions(String frontend, String feconn) {
        List<Integer> values = series(feconn);
        for (int s = 0; s < values.size(); s++) {
            Integer v = values.get(s);
            traffic(frontend, T0 + s * 1000L, v == null ? 0 : 500, v == null ? 0 : v, v == null ? 0 : v + 100,
                    Map.of("--", 500L), 0);
        }
    }

    /** Every frontend's process-wide connections each second from T0: "web 3200*10; api 3199*10" (300 requests a second). */
    private void processConnections(String byFrontend) {
        for (String frontend : byFrontend.split("; *")) {
            String name = frontend.substring(0, frontend.indexOf(' '));
            List<Integer> values = series(frontend.substring(name.length()));
            for (int s = 0; s < values.size(); s++) {
                Integer v = values.get(s);
                traffic(name, T0 + s * 1000L, v == null ? 0 : 300, 100, v == null ? 0 : v, Map.of("--", 300L), 0);
            }
        }
    }

    private void config(ConfigKind kind, String frontend, Integer maxconn) {
        detection.apply(host, new LoadBalancerConfig(LbConfig.newBuilder().setKind(kind).setId(frontend == null ? "lb1" : "lb1/" + frontend).setHost("lb1")
                .setFrontend(frontend).setMaxconn(maxconn).setTs(Instant.ofEpochMilli(T0)).build()), T0);
    }

    private List<Finding> judge(long now) {
        return Judging.judgePurely(detector, host, now, TopologyFactory.hostCodec());
    }

    @ParameterizedTest(name = "maxconn {0}, feconn {1}, {2} rejected, judged T0+{3}ms -> {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # maxconn | feconn each second     | rejected | judged at | severity | why
            2000      | 1600*10                | 0        | 9000      | WARNING  | 80% for 10s
            2000      | 1599*10                | 0        | 9000      | none     | just under 80%
            2000      | 1600*4 1599 1600*5     | 0        | 9000      | none     | one second under 80%
            2000      | 1600*9                 | 0        | 8000      | none     | 80% for only 9s
            2000      | 1600*10                | 0        | 10000     | WARNING  | the sample before the window holds until the next
            2000      | 1600*10                | 0        | 19000     | none     | no sample inside the window
            2000      | 1000 1600*10           | 0        | 11000     | WARNING  | the low sample was replaced before the window began
            2000      | 1000 1600*10           | 0        | 10000     | none     | the low sample was in force as the window began
            2000      | 1600*4 idle 1600*5     | 0        | 9000      | WARNING  | a second without requests says nothing
            2000      | 1900*10                | 0        | 9000      | CRITICAL | 95%
            2000      | 1899*10                | 0        | 9000      | WARNING  | just under 95%
            2000      | 1600*10                | 1        | 9000      | CRITICAL | a request rejected or queued out
            2000      | 1599*10                | 5        | 9000      | none     | rejects alone are not slot exhaustion
            -         | 2400*10                | 0        | 9000      | none     | no maxconn known and nothing waited: no limit in sight
            -         | 2400*10                | 5        | 9000      | CRITICAL | flat at 2400 while requests queued out: that is its limit
            -         | 2400*5 2300*5          | 5        | 9000      | none     | sessions that vary are not pinned at a limit
            -         | 2400*9                 | 5        | 8000      | none     | flat for only 9s
            -         | 10*10                  | 5        | 9000      | none     | fewer sessions than slots.inferred-min-sessions
            """)
    void aFrontendNearItsMaxconnForTheSustainWindow(Integer maxconn, String feconn, long rejected, long judgedAt,
                                                   String severity, String why) {
        if (maxconn != null) {
            config(ConfigKind.haproxy_frontend, "hc-ping", maxconn);
        }
        sessions("hc-ping", feconn);
        if (rejected > 0) {
            traffic("hc-ping", T0 + 5_000, 0, 0, 0, Map.of("sQ", rejected), 0);
        }
        List<Finding> findings = judge(T0 + judgedAt);
        assertThat(findings).as(why).extracting(Finding::severity).containsExactlyElementsOf(severities(severity));
        assertThat(findings).allSatisfy(f -> assertThat(f.details())
                .containsEntry("maxconn", String.valueOf(maxconn == null ? series(feconn).get(0) : maxconn))
                .containsEntry("maxconn_inferred", String.valueOf(maxconn == null)));
    }

    @ParameterizedTest(name = "process maxconn {0}, actconn {1} -> {2}: {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # process maxconn | actconn each second by frontend | severity | why
            4000              | web 3200*10; api 3200*10        | WARNING  | 80% of the process limit
            4000              | web 3200*10; api 3199*10        | none     | one frontend saw it under 80%
            4000              | web 3800*10; api 3800*10        | CRITICAL | 95%
            4000              | web 3200*9                      | none     | 80% for only 9s
            -                 | web 3900*10                     | none     | no process maxconn known
            """)
    void theProcessNearItsMaxconnIsOneFindingForTheHost(Integer maxconn, String actconn, String severity, String why) {
        if (maxconn != null) {
            config(ConfigKind.haproxy_process, null, maxconn);
        }
        processConnections(actconn);
        List<Finding> findings = judge(T0 + 9_000);
        assertThat(findings).as(why).extracting(Finding::severity).containsExactlyElementsOf(severities(severity));
        assertThat(findings).allSatisfy(f -> {
            assertThat(f.dedupKey()).isEqualTo("socket_slot_exhaustion/lb1/process");
            assertThat(f.scope().frontend()).isNull();
        });
    }

    @Test
    void aQuietFrontendDoesNotHideTheProcessLimit() {
        config(ConfigKind.haproxy_process, null, 4000);
        processConnections("web 3800*10; stats idle*5 3800");
        assertThat(judge(T0 + 9_000)).extracting(Finding::dedupKey).containsExactly("socket_slot_exhaustion/lb1/process");
    }

    @Test
    void theFindingGivesTheLimitTheRejectsAndTheSocketsTheTarpitHolds() {
        for (int s = 0; s < 10; s++) {
            traffic("hc-ping", T0 + s * 1000L, 500, 2600, 2700, Map.of("PT", 300L, "sQ", 5L, "--", 195L), 300_000);
        }
        assertThat(judge(T0 + 9_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.SOCKET_SLOT_EXHAUSTION, Severity.CRITICAL, "socket_slot_exhaustion/lb1/hc-ping",
                    T0 - 1_000, T0 + 9_000);
            assertThat(f.scope().host()).isEqualTo("lb1");
            assertThat(f.scope().frontend()).isEqualTo("hc-ping");
            assertThat(f.details()).containsEntry("feconn", "2600").containsEntry("maxconn", "2600")
                    .containsEntry("maxconn_inferred", "true").containsEntry("sessions_ratio", "1.00")
                    .containsEntry("note", "no maxconn known for lb1/hc-ping: sessions stayed flat at 2600 for 10s while"
                            + " requests waited, so that is its limit")
                    .containsEntry("rejected_or_queued_out", "50").containsEntry("requests", "5000")
                    .containsEntry("tarpit_share", "60%").containsEntry("tarpit_sockets_held", "300")
                    .containsEntry("terminations", "PT=3000,--=1950,sQ=50");
            assertThat(f.summary()).isEqualTo("HAProxy lb1 frontend hc-ping is running out of connection slots: feconn 2600/2600"
                    + " (100%) for 10s; 50 requests rejected or queued out; tarpit holds ~300 sockets (60% of requests tarpitted)");
        });
    }
}
