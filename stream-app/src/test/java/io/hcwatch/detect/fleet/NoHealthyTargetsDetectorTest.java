package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * no_healthy_targets: an HAProxy backend that announced "has no server available!" (until a
 * server is seen UP after it) or whose servers are all DOWN (by HAProxy's own count of servers
 * left when it gave one), or an ALB answering ≥ 5 503s with target '-' within two steps.
 */
class NoHealthyTargetsDetectorTest {

    private final NoHealthyTargetsDetector detector = new NoHealthyTargetsDetector(Fleet.SETTINGS);

    /**
     * Backend be-web after {@code servers} ("web1 DOWN@0 web2 UP@500": state changes at T0 + ms, in
     * order), each with HAProxy's count of active servers left when given, and its announcement.
     */
    private static Fleet backend(String servers, Integer left, Long announcedAt) {
        Fleet fleet = Fleet.haproxy("be-web");
        if (announcedAt != null) {
            fleet.apply(Checks.noServerAvailable("be-web", T0 + announcedAt));
        }
        if (!servers.equals("none")) {
            for (String change : servers.split(" (?=web)")) {
                String[] parts = change.split("[ @]");
                boolean up = parts[1].equals("UP");
                fleet.apply(fleet.check("?", parts[0], T0 + Long.parseLong(parts[2]),
                                up ? CheckOutcome.pass : CheckOutcome.connect_error, up ? 3 : 0)
                        .setReason(up ? null : "Layer4 connection problem")
                        .setState(up ? TargetState.healthy : TargetState.unhealthy).setActiveServersLeft(left).build());
            }
        }
        return fleet;
    }

    @ParameterizedTest(name = "{0}, servers left {1}, announced at {2}, judged at T0+{3}ms -> fires {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # servers                   | left | announced at | judged at | fires | why
            web1 DOWN@0                 | -    | -            | 1         | true  | every known server DOWN
            web1 DOWN@0                 | -    | -            | 0         | false | DOWN only since this instant: HAProxy's count may follow
            web1 DOWN@0 web2 UP@0       | -    | -            | 1000      | false | a server is UP
            web1 DOWN@0                 | 5    | -            | 1000      | false | HAProxy counts 5 left: it logs only the server that changed
            web1 DOWN@0 web2 DOWN@500   | 0    | -            | 1000      | true  | HAProxy counts none left
            none                        | -    | -            | 1000      | false | nothing known
            none                        | -    | 0            | 0         | true  | announced
            web1 UP@-5000               | -    | 0            | 1000      | true  | the UP was before the announcement
            web1 UP@500                 | -    | 0            | 1000      | false | a server came UP after it
            web1 UP@-5000 web1 DOWN@500 | -    | 0            | 1000      | true  | announced, and the only server is DOWN again
            """)
    void anHaproxyBackendHasNoServerWhenItSaysSoOrEveryServerIsDown(String servers, Integer left, Long announcedAt,
                                                                    long judgedAt, boolean fires, String why) {
        assertThat(backend(servers, left, announcedAt).judge(detector, T0 + judgedAt)).as(why).hasSize(fires ? 1 : 0)
                .allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.CRITICAL));
    }

    @ParameterizedTest(name = "{0}, announced at {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # servers               | announced at | window start | summary
            none                    | 0            | 0            | HAProxy backend be-web has no server available: requests get 503 <NOSRV>
            web1 UP@-5000           | 0            | 0            | HAProxy backend be-web has no server available (HAProxy says so; hcwatch last saw 1 of 1 servers UP): requests get 503 <NOSRV>
            web1 DOWN@0 web2 DOWN@0 | -            | 1000         | HAProxy backend be-web has no server available (2 known servers, all DOWN): requests get 503 <NOSRV>
            """)
    void theSummarySaysWhoSaidSo(String servers, Long announcedAt, long windowStart, String summary) {
        assertThat(backend(servers, null, announcedAt).judge(detector, T0 + 1_000)).singleElement().satisfies(f -> {
            assertThat(f.summary()).isEqualTo(summary);
            assertThat(f.windowStart()).isEqualTo(T0 + windowStart);
            assertThat(f.dedupKey()).isEqualTo("no_healthy_targets/be-web");
        });
    }

    @ParameterizedTest(name = "503s with no target {0} -> fires {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # 503s with no target (count@seconds before judging) | fires | why
            4@0                                                  | false | fewer than 5
            5@0                                                  | true  | 5 in the latest second
            5@19                                                 | true  | inside the two steps (20s)
            5@20                                                 | false | older than two steps
            2@0 3@10                                             | true  | summed over the window
            """)
    void anAlbAnsweringFiveOrMore503sWithoutATargetHasNone(String noTarget503, boolean fires, String why) {
        long now = T0 + 60_000;
        Fleet fleet = Fleet.alb();
        for (String second : noTarget503.split(" ")) {
            String[] parts = second.split("@");
            fleet.traffic(now - Long.parseLong(parts[1]) * 1000, Map.of(), Long.parseLong(parts[0]));
        }
        assertThat(fleet.judge(detector, now)).as(why).hasSize(fires ? 1 : 0);
    }

    @Test
    void anAlbFindingCountsThe503sInTheLastTwoSteps() {
        Fleet fleet = Fleet.alb().healthy("a=2", T0).traffic(T0 + 55_000, Map.of("a-0", 20L), 7);
        assertThat(fleet.judge(detector, T0 + 60_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.NO_HEALTHY_TARGETS, Severity.CRITICAL, "no_healthy_targets/prod-web-tg",
                    T0 + 40_000, T0 + 60_000);
            assertThat(f.details()).containsEntry("no_target_503", "7").containsEntry("requests", "27")
                    .containsEntry("known_targets", "2");
            assertThat(f.summary()).isEqualTo("ALB target group prod-web-tg answered 7 requests with 503 and no target in the last"
                    + " 20s: no target to route to, not even by failing open");
        });
    }
}
