package io.hcwatch.detect.feed;

import static io.hcwatch.detect.Judging.assertFinding;
import static io.hcwatch.detect.Judging.judgePurely;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.FeedSeen;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Severity;
import io.hcwatch.input.FeedHeartbeat;
import io.hcwatch.topology.TopologyFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * telemetry_gap: a feed (one source from one host or load balancer) that was sending and has
 * been silent for longer than its source's gap.after, judged at explicit times of the feed
 * monitor's clock. Defaults: haproxy 30 s, alb and alb-health 10 min (two 5-minute S3 deliveries),
 * health not watched.
 */
class TelemetryGapDetectorTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();

    private static FeedState feed(String source, String name, String seenAt) {
        FeedDetection detection = new FeedDetection(GapSettings.from(Settings.defaults()));
        // times are applied in the order written, as the feed monitor's clock releases them
        FeedState state = null;
        for (String at : seenAt.split(" ")) {
            FeedHeartbeat seen = new FeedHeartbeat(new FeedSeen(source, name, T0 + Long.parseLong(at)));
            if (state == null) {
                state = detection.newState(FeedDetection.key(source, name), seen);
            } else {
                detection.apply(state, seen, seen.eventTime());
            }
        }
        return state;
    }

    private static List<Finding> judge(GapSettings settings, FeedState state, long now) {
        return judgePurely(new TelemetryGapDetector(settings), state, now, TopologyFactory.feedCodec());
    }

    @ParameterizedTest(name = "{0} seen at T0+{1}ms, judged at T0+{2}ms, gap.after {3} -> fires {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # source   | seen at (ms)        | judged at | gap.after     | fires | why
            haproxy    | 0 1000 2000         | 32000     | -             | false | silent exactly 30 s: not longer than its delay
            haproxy    | 0 1000 2000         | 32001     | -             | true  | silent longer than 30 s
            haproxy    | 0 1000 40000        | 60000     | -             | false | it came back: silent 20 s
            haproxy    | 0 40000 1000        | 60000     | -             | false | a late second does not move the feed back
            haproxy    | 0                   | 45000     | haproxy=1m    | false | its own longer delay
            haproxy    | 0                   | 45000     | haproxy=0s    | false | not watched
            alb        | 0 1000              | 601000    | -             | false | silent 10 min exactly: within two 5-minute deliveries
            alb        | 0 1000              | 601001    | -             | true  | two deliveries missed
            alb-health | 0                   | 600001    | -             | true  | ALB health-check logs: also 10 min
            alb-health | 0                   | 120000    | alb-health=1m | true  | a shorter delay set for this source alone
            health     | 0                   | 86400000  | -             | false | pushed results come on changes only: not watched by default
            health     | 0                   | 61000     | health=1m     | true  | watched when set
            haproxy    | 0 20000 40000 60000 | 119999    | -             | false | a quiet host: 20 s silences are normal, 3 x 20 s allowed
            haproxy    | 0 20000 40000 60000 | 120001    | -             | true  | silent longer than 3 x its usual 20 s
            haproxy    | 0 1000 101000       | 132001    | -             | true  | a silence that was a gap is not learnt as normal
            haproxy    | 0 20000 7220000     | 7251000   | -             | true  | the usual silence of two hours ago is forgotten
            haproxy    | 0 20000 3620000     | 3679000   | -             | false | ... that of the hour before is not
            """)
    void aFeedIsStoppedWhenSilentForLongerThanItsSourcesDelay(String source, String seenAt, long judgedAt, String after,
                                                            boolean fires, String why) {
        Settings settings = after == null ? Settings.defaults() : Settings.defaults().with(Map.of("gap.after", after));
        assertThat(judge(GapSettings.from(settings), feed(source, "lb1", seenAt), T0 + judgedAt)).as(why)
                .hasSize(fires ? 1 : 0);
    }

    @Test
    void aSilentHostIsScopedBySourceAndHostAndSaysForHowLong() {
        List<Finding> found = judge(GapSettings.from(Settings.defaults()), feed("haproxy", "lb7", "0 2000"), T0 + 95_000);
        assertThat(found).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.TELEMETRY_GAP, Severity.ERROR, "telemetry_gap/haproxy/lb7", T0 + 2_000, T0 + 95_000);
            assertThat(f.scope().host()).isEqualTo("lb7");
            assertThat(f.scope().lb()).isNull();
            assertThat(f.summary()).isEqualTo("no haproxy telemetry from host lb7 for 1m33s (its normal delay is at most 30s)");
            assertThat(f.details()).containsEntry("source", "haproxy").containsEntry("host", "lb7")
                    .containsEntry("last_seen", "2026-03-03T14:30:02Z").containsEntry("gap_after", "30s");
        });
    }

    /**
     * A poll whose frontends served no new session (every stot_delta 0: "i" below) says the host is
     * up and quiet: a quiet host at night has nothing to log, so its silence is no gap however new
     * the feed. Polls that served sessions after the last line (2 s of slack: a poll covers the
     * second before it) make the silence the shipping's again.
     */
    @ParameterizedTest(name = "logs at {0}, polls at {1}, judged at T0+{2}ms -> fires {3}: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            # logs at (ms) | polls at (ms), i = served nothing   | judged at | fires | why
            0 1000         | 0 1000 2000i 30000i 60000i 90000i   | 95000     | false | up and quiet since its last line: nothing to log
            0 1000         | 0 1000 2500 30000i 60000i 90000i    | 95000     | false | the poll just after the last line counted that line's session
            0 1000         | 0 1000 2000i 30000 60000i 90000i    | 95000     | true  | a session served at 30 s was never logged: the shipping stopped
            0 1000         | 0 1000 2000i 30000i 60000i          | 95000     | true  | quiet polls that stopped too: the host is gone
            """)
    void pollsOfAQuietHostMakeItsSilenceNoGap(String logsAt, String pollsAt, long judgedAt, boolean fires, String why) {
        FeedDetection detection = new FeedDetection(GapSettings.from(Settings.defaults()));
        List<FeedHeartbeat> records = new java.util.ArrayList<>();
        for (String at : logsAt.split(" ")) {
            records.add(new FeedHeartbeat(new FeedSeen("haproxy", "lb7", T0 + Long.parseLong(at))));
        }
        for (String at : pollsAt.split(" ")) {
            boolean idle = at.endsWith("i");
            records.add(FeedDetection.pollOf("lb7", T0 + Long.parseLong(idle ? at.substring(0, at.length() - 1) : at), !idle));
        }
        records.sort(java.util.Comparator.comparingLong(FeedHeartbeat::eventTime));
        FeedState state = detection.newState(FeedDetection.key("haproxy", "lb7"), records.get(0));
        records.subList(1, records.size()).forEach(r -> detection.apply(state, r, r.eventTime()));

        assertThat(judge(GapSettings.from(Settings.defaults()), state, T0 + judgedAt)).as(why).hasSize(fires ? 1 : 0);
    }

    /**
     * The collector's polls of an HAProxy host (haproxy-stats, one a second) are its heartbeat: a
     * host whose logs stop while it is still polled has lost its log shipping (rsyslog); one whose
     * polls stopped too is gone. Polls alone never fire: a feed that never sent logs is not stopped.
     */
    @ParameterizedTest(name = "logs at {0}, polls at {1}, judged at T0+{2}ms -> {3}: {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # logs at (ms)  | polls at (ms)            | judged at | polls      | why
            0 1000          | 0 1000 30000 60000 90000 | 95000     | continuing | polled 5 s ago, logs silent 94 s: the shipping stopped
            0 1000          | 0 1000                   | 95000     | stopped    | polls and logs silent alike: the host is gone
            0 1000          | 0 1000 70000             | 95000     | continuing | the last poll 25 s ago, within the 30 s the logs are allowed
            0 1000          | 0 1000 65000             | 95000     | continuing | polled 30 s ago: not yet stopped
            0 1000          | 0 1000 64999             | 95000     | stopped    | polled just over 30 s ago: stopped
            0 1000          | -                        | 95000     | none       | never polled: no collector, nothing more to say
            -               | 0 1000 60000 90000       | 95000     | no alert   | polls alone: its logs were never sent, nothing stopped
            0 1000          | 0 1000 30000 60000 90000 | 31000     | no alert   | polls do not shorten the silence the logs are allowed
            """)
    void theCollectorsPollsTellALogShippingGapFromAHostGone(String logsAt, String pollsAt, long judgedAt, String polls,
                                                            String why) {
        FeedDetection detection = new FeedDetection(GapSettings.from(Settings.defaults()));
        List<FeedHeartbeat> records = new java.util.ArrayList<>();
        if (logsAt != null) {
            for (String at : logsAt.split(" ")) {
                records.add(new FeedHeartbeat(new FeedSeen("haproxy", "lb7", T0 + Long.parseLong(at))));
            }
        }
        if (pollsAt != null) {
            for (String at : pollsAt.split(" ")) {
                records.add(FeedDetection.pollOf("lb7", T0 + Long.parseLong(at)));
            }
        }
        // in event-time order, as the feed monitor's clock releases them (a stable sort: a log before a poll of its time)
        records.sort(java.util.Comparator.comparingLong(FeedHeartbeat::eventTime));
        FeedState state = null;
        for (FeedHeartbeat r : records) {
            if (state == null) {
                state = detection.newState(FeedDetection.key("haproxy", "lb7"), r);
            } else {
                detection.apply(state, r, r.eventTime());
            }
        }
        List<Finding> found = judge(GapSettings.from(Settings.defaults()), state, T0 + judgedAt);
        if (polls.equals("no alert")) {
            assertThat(found).as(why).isEmpty();
            return;
        }
        assertThat(found).as(why).singleElement().satisfies(f -> {
            assertThat(f.dedupKey()).isEqualTo("telemetry_gap/haproxy/lb7");
            assertThat(f.scope().host()).isEqualTo("lb7");
            assertThat(f.details().get("polls")).as(why).isEqualTo(polls.equals("none") ? null : polls);
            switch (polls) {
                case "continuing" -> assertThat(f.summary()).as(why).isEqualTo("no haproxy telemetry from host lb7 for 1m34s"
                        + " (its normal delay is at most 30s); the collector still polls it (HAProxy is up): its log shipping"
                        + " stopped, check rsyslog and its omkafka action on the host");
                case "stopped" -> assertThat(f.summary()).as(why).isEqualTo("no haproxy telemetry from host lb7 for 1m34s"
                        + " (its normal delay is at most 30s); the collector's polls of it stopped too: the host or HAProxy is gone");
                default -> assertThat(f.summary()).as(why)
                        .isEqualTo("no haproxy telemetry from host lb7 for 1m34s (its normal delay is at most 30s)");
            }
        });
    }

    @Test
    void aSilentLoadBalancerIsScopedByItsName() {
        List<Finding> found = judge(GapSettings.from(Settings.defaults()), feed("alb", "app/prod-web/50dc6c495c0c9188", "0"),
                T0 + 720_000);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.dedupKey()).isEqualTo("telemetry_gap/alb/app/prod-web/50dc6c495c0c9188");
            assertThat(f.scope().lb()).isEqualTo("app/prod-web/50dc6c495c0c9188");
            assertThat(f.summary()).isEqualTo(
                    "no alb telemetry from load balancer app/prod-web/50dc6c495c0c9188 for 12m (its normal delay is at most 10m)");
        });
    }
}
