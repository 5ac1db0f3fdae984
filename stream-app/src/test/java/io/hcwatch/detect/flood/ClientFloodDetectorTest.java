package io.hcwatch.detect.flood;

import static io.hcwatch.detect.Judging.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Judging;
import io.hcwatch.detect.Severity;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.topology.TopologyFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * client_flood: one client or request key with ≥ 20% of a scope's requests and ≥ 100 req/s over
 * the 10s window, summed over the hosts that serve it, counted by what the sketches guarantee
 * (count - error). Each second from T0 brings one summary per host, as the combiner sends them;
 * clients and keys read "192.0.2.9=100,198.51.100.7=10" (counts a second), "192.0.2.9=100~1" (of which 1 may
 * be others').
 * Addresses arrive already keyed (IPv6 by /64): the combiner does that, not this detector.
 */
class ClientFloodDetectorTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private static final String KEY = "GET /v1/devices/{uuid}/ping";
    private final FloodSettings settings = FloodSettings.from(Settings.defaults());
    private final FloodDetection detection = new FloodDetection(settings);
    private final ClientFloodDetector detector = new ClientFloodDetector(settings);

    private static List<HeavyHitter> hitters(String spec) {
        List<HeavyHitter> out = new ArrayList<>();
        for (String h : spec.isBlank() ? new String[0] : spec.split(",")) {
            String[] kv = h.split("=");
            String[] ce = kv[1].split("~");
            out.add(new HeavyHitter(kv[0], Long.parseLong(ce[0]), ce.length > 1 ? Long.parseLong(ce[1]) : 0));
        }
        return out;
    }

    private static FloodState scope(FloodDetection detection, String platform, String name) {
        return detection.newState(platform + "/" + name,
                new ClientSummary(new ClientTraffic(platform, name, null, 0L, 0L, 0L, List.of(), 0L, List.of(), 0L)));
    }

    /** {@code seconds} seconds from T0, each with a summary of {@code requests} per host ("-": none named), clients and keys. */
    private static void seconds(FloodDetection detection, FloodState s, int seconds, String hosts, long requests, String clients,
                                String keys, long tarpitted) {
        for (int i = 0; i < seconds; i++) {
            long at = T0 + i * 1000L;
            for (String host : hosts.split(" ")) {
                detection.apply(s, new ClientSummary(new ClientTraffic(s.platform, s.scope, host.equals("-") ? null : host, at,
                        requests, tarpitted, hitters(clients), 0L, hitters(keys), 0L)), at);
            }
        }
    }

    private List<Finding> judge(FloodState s, long now) {
        return Judging.judgePurely(detector, s, now, TopologyFactory.floodCodec());
    }

    @ParameterizedTest(name = "{0}s of {1} req/s with {2}, judged T0+{3}ms -> fires {4}: {5}")
    @CsvSource(delimiter = '|', textBlock = """
            # seconds | requests/s | client each second | judged at | fires | why
            10        | 500        | 192.0.2.9=100      | 9000      | true  | 20% at 100 req/s
            10        | 500        | 192.0.2.9=99       | 9000      | false | 99 req/s
            10        | 501        | 192.0.2.9=101      | 9000      | true  | 20.2% at 101 req/s
            10        | 506        | 192.0.2.9=101      | 9000      | false | 19.96%
            10        | 400        | 192.0.2.9=100~1    | 9000      | false | 99 req/s guaranteed: what may be others' does not count
            9         | 500        | 192.0.2.9=100      | 8000      | false | 900 requests over the 10s window: 90 req/s
            10        | 500        | 192.0.2.9=100      | 10000     | false | the first second has left the window
            11        | 500        | 192.0.2.9=100      | 10000     | true  | ten seconds in the window again
            """)
    void aClientWithAFifthOfTheRequestsAtAHundredPerSecond(int seconds, long requests, String client, long judgedAt,
                                                           boolean fires, String why) {
        FloodState s = scope(detection, "haproxy", "hc-ping");
        seconds(detection, s, seconds, "lb1", requests, client + ",198.51.100.7=10", "", 0);
        assertThat(judge(s, T0 + judgedAt)).as(why).extracting(f -> f.scope().client())
                .containsExactlyElementsOf(fires ? List.of("192.0.2.9") : List.of());
    }

    @ParameterizedTest(name = "hosts {0}, each {1} req/s with {2} from the client -> fires {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # hosts  | requests/s per host | client per host | fires | hosts detail              | why
            lb1      | 500                 | 100             | true  | lb1=500req/s              | one host
            lb1 lb2  | 250                 | 50              | true  | lb1=250req/s,lb2=250req/s | summed over the hosts: 100 req/s
            lb1      | 250                 | 50              | false | -                         | one of them alone: 50 req/s
            """)
    void aClientIsSummedOverTheHostsThatServeTheScope(String hosts, long requests, long client, boolean fires, String hostsDetail,
                                                      String why) {
        FloodState s = scope(detection, "haproxy", "hc-ping");
        seconds(detection, s, 10, hosts, requests, "192.0.2.9=" + client, "", 0);
        assertThat(judge(s, T0 + 9_000)).as(why).hasSize(fires ? 1 : 0)
                .allSatisfy(f -> assertThat(f.details()).containsEntry("hosts", hostsDetail));
    }

    @ParameterizedTest(name = "client {0} req/s, key {1} req/s -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # client's requests/s | key's requests/s | findings                        | block                            | why
            0                     | 200              | key:GET /v1/devices/{uuid}/ping | none: many clients share the key | many clients on one key
            150                   | 200              | client:192.0.2.9                | 192.0.2.9                        | a client to block: the key would only repeat it
            0                     | 99               | none                            | -                                | the key at 99 req/s
            """)
    void aRequestKeyFloodsWhenNoSingleClientDoes(long client, long key, String findings, String block, String why) {
        FloodState s = scope(detection, "haproxy", "hc-ping");
        seconds(detection, s, 10, "lb1", 500, client > 0 ? "192.0.2.9=" + client : "", KEY + "=" + key, 0);
        List<Finding> found = judge(s, T0 + 9_000);
        assertThat(found).as(why).extracting(Finding::dedupKey)
                .containsExactlyElementsOf(findings.equals("none") ? List.of() : List.of("client_flood/hc-ping/" + findings));
        assertThat(found).allSatisfy(f -> assertThat(f.details()).containsEntry("block", block));
    }

    @Test
    void theFindingNamesTheSlash64ToBlockItsHostsAndWarnsAboutTarpit() {
        FloodState s = scope(detection, "haproxy", "hc-ping");
        seconds(detection, s, 10, "lb1 lb2", 250, "2001:db8:77:1::/64=100,198.51.100.7=5", "", 30);
        assertThat(judge(s, T0 + 9_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.CLIENT_FLOOD, Severity.ERROR, "client_flood/hc-ping/client:2001:db8:77:1::/64", T0, T0 + 9_000);
            assertThat(f.scope().frontend()).isEqualTo("hc-ping");
            assertThat(f.scope().lb()).isNull();
            assertThat(f.scope().client()).isEqualTo("2001:db8:77:1::/64");
            assertThat(f.details()).containsEntry("key", "2001:db8:77:1::/64").containsEntry("rate_rps", "200")
                    .containsEntry("share", "40%").containsEntry("count_error_bound", "0").containsEntry("requests_in_window", "5000")
                    .containsEntry("scope_rate_rps", "500").containsEntry("top_clients", "2001:db8:77:1::/64 200 req/s, 198.51.100.7 10 req/s")
                    .containsEntry("block", "2001:db8:77:1::/64").containsEntry("hosts", "lb1=250req/s,lb2=250req/s")
                    .containsEntry("tarpit_in_use", "true").containsKey("tarpit_warning");
            assertThat(f.summary()).isEqualTo("client 2001:db8:77:1::/64 sent 40% of the requests to haproxy hc-ping (200 req/s over 10s"
                    + " across 2 hosts); tarpit is in use and holds a socket per request");
        });
    }

    @Test
    void anAlbScopeIsTheLoadBalancer() {
        FloodState s = scope(detection, "alb", "app/prod-web/50dc6c495c0c9188");
        seconds(detection, s, 10, "-", 500, "192.0.2.9=100", "", 0);
        assertThat(judge(s, T0 + 9_000)).singleElement().satisfies(f -> {
            assertThat(f.scope().lb()).isEqualTo("app/prod-web/50dc6c495c0c9188");
            assertThat(f.scope().frontend()).isNull();
            assertThat(f.details()).containsEntry("tarpit_in_use", "false").doesNotContainKey("tarpit_warning");
        });
    }
}
