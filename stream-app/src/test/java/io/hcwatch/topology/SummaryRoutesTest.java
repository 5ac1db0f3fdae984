package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.traffic.TrafficCombiner;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each released summary goes to the monitor keyed by what it summarises, with the heartbeat of the feed it came from. */
class SummaryRoutesTest {

    private final IngestRecords records = new IngestRecords();

    private void release(Source source, TrafficCombiner combiner) {
        Outbox out = records.outbox(source.id() + "-0");
        SummaryRoutes routes = new SummaryRoutes(source, out, new FeedHeartbeats(source, out));
        combiner.drainAll().forEach(routes::summary);
    }

    @Test
    void anAlbSecondGoesToItsTargetGroupAndClientScopeAndBeatsForItsLoadBalancer() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addAlb(IngestRecords.alb("tg-a", "10.0.1.1", T0 + 100));
        release(Source.ALB, combiner);
        assertThat(records.described()).containsExactly("FLEET tg-a TARGET_TRAFFIC@0.0",
                "FEED alb/app/prod-web/50dc6c495c0c9188 FEED_SEEN@0.0", "FLOOD alb/app/prod-web/50dc6c495c0c9188 CLIENT_TRAFFIC@0.0");
    }

    @Test
    void anHaproxySecondGoesToItsHostItsBackendAndItsFrontendsClientsAndBeatsForItsHostOnce() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addHaproxy(IngestRecords.haproxy("lb1", "fe", "app", T0 + 100).request());
        release(Source.HAPROXY, combiner);
        assertThat(records.described()).containsExactlyInAnyOrder("FLEET app TARGET_TRAFFIC@0.0", "HOST lb1 HAPROXY_TRAFFIC@0.0",
                "FEED haproxy/lb1 FEED_SEEN@0.0", "FLOOD haproxy/fe CLIENT_TRAFFIC@0.0");
    }

    @Test
    void haproxyLinesOfNoNamedHostGoToThePlaceholderHostButBeatForNoFeed() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        var line = IngestRecords.haproxy("lb1", "fe", "app", T0 + 100).request();
        line.setHost(null);
        combiner.addHaproxy(line);
        release(Source.HAPROXY, combiner);
        assertThat(records.described()).as("before the collector names the host, nothing may later fall silent")
                .containsExactlyInAnyOrder("FLEET app TARGET_TRAFFIC@0.0", "HOST unknown HAPROXY_TRAFFIC@0.0",
                        "FLOOD haproxy/fe CLIENT_TRAFFIC@0.0");
    }

    @Test
    void aCheckBatchGoesToItsTargetGroupAndBeatsForItsLoadBalancerOrElseItsTargetGroup() {
        Outbox out = records.outbox("alb-health-0");
        SummaryRoutes routes = new SummaryRoutes(Source.ALB_HEALTH, out, new FeedHeartbeats(Source.ALB_HEALTH, out));
        HealthCheckResult first = IngestRecords.checkResult("tg-a", "i-1", T0 + 100);
        routes.checks(List.of(first, IngestRecords.checkResult("tg-a", "i-2", T0 + 400)));
        first.setLb("app/prod-web/1");
        routes.checks(List.of(IngestRecords.checkResult("tg-a", "i-1", T0 + 1_500)));
        routes.checks(List.of(first));
        // the batch's time is its latest check's
        assertThat(records.described()).containsExactly("FLEET tg-a HEALTH_CHECKS@0.4", "FEED alb-health/tg-a FEED_SEEN@0.4",
                "FLEET tg-a HEALTH_CHECKS@1.5", "FEED alb-health/tg-a FEED_SEEN@1.5", "FLEET tg-a HEALTH_CHECKS@0.1",
                "FEED alb-health/app/prod-web/1 FEED_SEEN@0.1");
    }

    @Test
    void checksFromHaproxysLogBeatForNoFeedOfTheirOwn() {
        Outbox out = records.outbox("haproxy-0");
        SummaryRoutes routes = new SummaryRoutes(Source.HAPROXY, out, new FeedHeartbeats(Source.HAPROXY, out));
        routes.checks(List.of(IngestRecords.checkResult("app", "web1", T0)));
        assertThat(records.described()).containsExactly("FLEET app HEALTH_CHECKS@0.0");
    }
}
