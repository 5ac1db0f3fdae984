package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.FeedHeartbeat;
import org.junit.jupiter.api.Test;

/** A feed's heartbeat goes to the feed monitor at most once per second of event time. */
class FeedHeartbeatsTest {

    private final IngestRecords records = new IngestRecords();

    @Test
    void aFeedIsSeenOncePerSecondAndNeverForAnOlderSecond() {
        FeedHeartbeats beats = new FeedHeartbeats(Source.HAPROXY, records.outbox("haproxy-0"));
        beats.seen("lb1", T0 + 100);
        beats.seen("lb1", T0 + 900);
        beats.seen("lb2", T0 + 900);
        beats.seen("lb1", T0 + 1_000);
        beats.seen("lb1", T0 + 200);
        beats.seen(null, T0 + 5_000);
        assertThat(records.described()).containsExactly("FEED haproxy/lb1 FEED_SEEN@0.1", "FEED haproxy/lb2 FEED_SEEN@0.9",
                "FEED haproxy/lb1 FEED_SEEN@1.0");
        FeedHeartbeat first = (FeedHeartbeat) records.sent.get(0).value().envelope().payload();
        assertThat(first.seen().getSource()).isEqualTo("haproxy");
        assertThat(first.seen().getName()).isEqualTo("lb1");
        assertThat(records.sent.get(0).value().envelope().upstream()).isEqualTo("haproxy-0");
    }

    @Test
    void aSourceThatPacesNoFeedMonitorSendsNoHeartbeatButACollectorPollIsItsHostsHeartbeat() {
        FeedHeartbeats beats = new FeedHeartbeats(Source.HAPROXY_STATS, records.outbox("haproxy-stats-0"));
        beats.seen("lb1", T0);
        beats.polled("lb1", T0 + 300, true);
        beats.polled("lb1", T0 + 600, true);
        beats.polled("lb1", T0 + 1300, false);
        assertThat(records.described()).containsExactly("FEED haproxy/lb1 FEED_SEEN@0.3", "FEED haproxy/lb1 FEED_SEEN@1.3");
        FeedHeartbeat poll = (FeedHeartbeat) records.sent.get(0).value().envelope().payload();
        assertThat(poll.seen().getSource()).isEqualTo("haproxy-stats");
        FeedHeartbeat quiet = (FeedHeartbeat) records.sent.get(1).value().envelope().payload();
        assertThat(quiet.seen().getSource()).as("a poll in which HAProxy served nothing").isEqualTo("haproxy-stats-idle");
    }
}
