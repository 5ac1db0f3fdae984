package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.UnreadableCheck;
import io.hcwatch.parse.TargetIdentity;
import io.hcwatch.topology.state.DetachedStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where each kind of decoded record goes, and what it tells the partition's clock. */
class RoutingTest {

    private final IngestRecords records = new IngestRecords();
    private final List<Long> read = new ArrayList<>();
    private final HaproxyHosts hosts = new HaproxyHosts();
    private int sentOn;

    private Routing routing(Source source) {
        Outbox out = records.outbox(source.id() + "-2");
        FeedHeartbeats heartbeats = new FeedHeartbeats(source, out);
        Summarising seconds = new Summarising(new DetachedStore<>("pending"), 16, new SummaryRoutes(source, out, heartbeats), () -> { });
        return new Routing(source, seconds, out, heartbeats, hosts, read::add, () -> sentOn++);
    }

    @Test
    void aBackendNoticeGoesOutAfterTheChecksReadBeforeIt() {
        Routing routing = routing(Source.HAPROXY);
        IngestRecords.check("app", "web1", T0 + 100).accept(routing);
        IngestRecords.noServer("app", T0 + 200).accept(routing);
        assertThat(records.described()).containsExactly("FLEET app HEALTH_CHECKS@0.1", "FLEET app BACKEND_EVENT@0.2");
        assertThat(records.sent.get(1).value().envelope().upstream()).isEqualTo("haproxy-2");
        assertThat(read).containsExactly(T0 + 100, T0 + 200);
        assertThat(sentOn).isEqualTo(1);
    }

    @Test
    void logLinesAndChecksWaitForTheirSecond() {
        Routing routing = routing(Source.ALB);
        IngestRecords.alb("tg-a", "10.0.1.1", T0 + 100).accept(routing);
        IngestRecords.check("tg-a", "i-1", T0 + 200).accept(routing);
        assertThat(records.sent).isEmpty();
        assertThat(read).containsExactly(T0 + 100, T0 + 200);
        assertThat(sentOn).isZero();
    }

    @Test
    void aConfigGoesToTheMonitorOfWhatItConfiguresAndIsNotReadForProgress() {
        Routing routing = routing(Source.CONFIG);
        IngestRecords.targetGroupConfig("tg-a", T0).accept(routing);
        IngestRecords.frontendConfig("lb7/fe", null, T0 + 1_000).accept(routing);
        assertThat(records.described()).containsExactly("FLEET tg-a LB_CONFIG@0.0", "HOST lb7 LB_CONFIG@1.0");
        assertThat(read).isEmpty();
        assertThat(hosts.forUnnamed()).isEqualTo("lb7");
    }

    @Test
    void aPollGoesToItsHostAtOnceWithOneHeartbeatPerSecond() {
        Routing routing = routing(Source.HAPROXY_STATS);
        IngestRecords.poll("lb1", T0 + 300).accept(routing);
        IngestRecords.poll("lb1", T0 + 800).accept(routing);
        assertThat(records.described()).containsExactly("HOST lb1 HAPROXY_STATS@0.3", "FEED haproxy/lb1 FEED_SEEN@0.3",
                "HOST lb1 HAPROXY_STATS@0.8");
        assertThat(sentOn).isEqualTo(2);
    }

    @Test
    void aLogLineNamingNoHostIsTheOneCollectorHostsAndStaysUnnamedWhenThereAreSeveral() {
        Routing routing = routing(Source.HAPROXY);
        HaproxyLine before = IngestRecords.haproxy(null, "fe", "app", T0);
        before.accept(routing);
        assertThat(before.request().getHost()).isNull();
        hosts.named("web1");
        HaproxyLine localhost = IngestRecords.haproxy("localhost", "fe", "app", T0);
        localhost.accept(routing);
        assertThat(localhost.request().getHost()).isEqualTo("web1");
        hosts.named("web2");
        HaproxyLine unplaced = IngestRecords.haproxy(null, "fe", "app", T0);
        unplaced.accept(routing);
        assertThat(unplaced.request().getHost()).isNull();
    }

    @Test
    void anUnreadableCheckTellsTheFleetItsTargetExists() {
        routing(Source.HEALTH).unreadable(new TargetIdentity("tg-a", "i-9", -1), T0 + 4_000);
        assertThat(records.described()).containsExactly("FLEET tg-a TARGET_SEEN@4.0");
        UnreadableCheck seen = (UnreadableCheck) records.sent.get(0).value().envelope().payload();
        assertThat(seen.seen().getTarget()).isEqualTo("i-9");
        assertThat(seen.seen().getSource()).isEqualTo("health");
    }
}
