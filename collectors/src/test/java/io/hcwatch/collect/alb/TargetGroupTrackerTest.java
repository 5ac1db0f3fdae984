package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.collect.Outgoing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.AnomalyDetection;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetDescription;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealth;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetHealthDescription;

class TargetGroupTrackerTest {

    private static final TargetGroupInfo WEB = new TargetGroupInfo("arn:tg/web", "web", "app/web-lb/50dc6c495c0c9188", "ip",
            new CheckConfig("/health", 30_000, 5_000, 5, 2), true, new Thresholds(1, null), null);

    private static TargetHealthDescription ip(String ip, String zone, String state, String reason, String description) {
        return TargetHealthDescription.builder().target(TargetDescription.builder().id(ip).port(8080).availabilityZone(zone).build())
                .targetHealth(TargetHealth.builder().state(state).reason(reason).description(description).build()).build();
    }

    private static List<HealthCheckResult> results(List<Outgoing> out) {
        return out.stream().filter(o -> o.topic() == Outgoing.Topic.HEALTH).map(o -> (HealthCheckResult) o.record()).toList();
    }

    private static List<LbConfig> configs(List<Outgoing> out) {
        return out.stream().filter(o -> o.topic() == Outgoing.Topic.CONFIG).map(o -> (LbConfig) o.record()).toList();
    }

    @Test
    void everyTargetIsPublishedOnceAtStartThenOnlyOnAChangeOfStateOrReason() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        List<Outgoing> first = t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "healthy", null, null)), 1_000);
        assertThat(results(first)).hasSize(2).allSatisfy(r -> assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass));
        assertThat(first).filteredOn(o -> o.topic() == Outgoing.Topic.HEALTH).extracting(Outgoing::key)
                .containsExactly("10.0.1.5:8080", "10.0.2.5:8080");

        assertThat(t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "healthy", null, null)), 2_000)).isEmpty();

        List<HealthCheckResult> changed = results(t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "unhealthy", "Target.ResponseCodeMismatch", "Health checks failed with these codes: [502]")),
                3_000));
        assertThat(changed).singleElement().satisfies(r -> {
            assertThat(r.getTarget()).isEqualTo("10.0.2.5:8080");
            assertThat(r.getTargetIp()).isEqualTo("10.0.2.5");
            assertThat(r.getPort()).isEqualTo(8080);
            assertThat(r.getAz()).isEqualTo("us-east-1b");
            assertThat(r.getState()).isEqualTo(TargetState.unhealthy);
            assertThat(r.getOutcome()).isEqualTo(CheckOutcome.http_status);
            assertThat(r.getStatusCode()).isEqualTo(502);
            assertThat(r.getReason()).isEqualTo("Target.ResponseCodeMismatch");
            assertThat(r.getLb()).isEqualTo("app/web-lb/50dc6c495c0c9188");
            assertThat(r.getTs().toEpochMilli()).isEqualTo(3_000);
        });
    }

    @Test
    void anUnchangedTargetIsPublishedAgainOnceItsGroupsCheckIntervalHasPassed() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        List<TargetHealthDescription> same = List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "unhealthy", "Target.Timeout", "Request timed out"));
        assertThat(results(t.health(same, 1_000))).hasSize(2);
        assertThat(results(t.health(same, 30_999))).as("29.999 s later: within WEB's 30 s interval").isEmpty();
        assertThat(results(t.health(same, 31_000))).extracting(r -> r.getTs().toEpochMilli()).containsExactly(31_000L, 31_000L);
        assertThat(results(t.health(same, 41_000))).isEmpty();
    }

    @Test
    void aFailedDeliveryIsSentAgainAtTheNextPoll() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        List<Outgoing> first = t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null)), 1_000);
        first.forEach(o -> o.onFailure().run());

        List<Outgoing> again = t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null)), 2_000);

        assertThat(results(again)).hasSize(1);
        assertThat(configs(again)).hasSize(1);
    }

    @Test
    void anUnhealthyTargetDrainingItsRequestsIsAFailingTargetStillRegistered() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        List<Outgoing> out = t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "unhealthy.draining", "Target.Timeout", null)), 1_000);

        assertThat(results(out)).filteredOn(r -> r.getTargetIp().equals("10.0.2.5")).singleElement().satisfies(r -> {
            assertThat(r.getState()).isEqualTo(TargetState.unhealthy);
            assertThat(r.getOutcome()).isEqualTo(CheckOutcome.timeout);
        });
        assertThat(configs(out)).singleElement().satisfies(c -> assertThat(c.getRegisteredTargets()).isEqualTo(2));
    }

    @Test
    void aTargetThatLeftIsPublishedOnceAsUnusedNotRegistered() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        t.health(List.of(ip("10.0.1.5", "us-east-1a", "draining", "Target.DeregistrationInProgress", null)), 1_000);

        List<HealthCheckResult> gone = results(t.health(List.of(), 2_000));

        assertThat(gone).singleElement().satisfies(r -> {
            assertThat(r.getState()).isEqualTo(TargetState.unused);
            assertThat(r.getReason()).isEqualTo(TargetGroupTracker.NOT_REGISTERED);
            assertThat(r.getAz()).isEqualTo("us-east-1a");
        });
        assertThat(results(t.health(List.of(), 3_000))).isEmpty();
    }

    @Test
    void theLbConfigCountsRegisteredTargetsAndMapsZonesByIdAndAddress() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        List<LbConfig> c = configs(t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "unhealthy", "Target.Timeout", null),
                ip("10.0.3.5", "us-east-1c", "unused", "Target.NotInUse", null),
                ip("10.0.4.5", "us-east-1c", "draining", "Target.DeregistrationInProgress", null),
                ip("192.168.9.9", "all", "initial", "Elb.RegistrationInProgress", null)), 1_000));

        assertThat(c).singleElement().satisfies(config -> {
            assertThat(config.getId()).isEqualTo("web");
            assertThat(config.getRegisteredTargets()).as("healthy, unhealthy, initial; not unused or draining").isEqualTo(3);
            assertThat(config.getTargetZones()).containsEntry("10.0.1.5", "us-east-1a").containsEntry("10.0.1.5:8080", "us-east-1a")
                    .containsEntry("10.0.3.5:8080", "us-east-1c").doesNotContainKey("192.168.9.9").hasSize(8);
            assertThat(config.getCrossZone()).isTrue();
            assertThat(config.getUnhealthyStateRouting()).isEqualTo(new Thresholds(1, null));
            assertThat(config.getHealthCheck().getTimeoutMs()).isEqualTo(5_000);
        });
        assertThat(configs(t.health(List.of(ip("10.0.1.5", "us-east-1a", "healthy", null, null),
                ip("10.0.2.5", "us-east-1b", "healthy", null, null),
                ip("10.0.3.5", "us-east-1c", "unused", "Target.NotInUse", null),
                ip("10.0.4.5", "us-east-1c", "draining", "Target.DeregistrationInProgress", null),
                ip("192.168.9.9", "all", "initial", "Elb.RegistrationInProgress", null)), 2_000)))
                .as("a state change alone leaves the config as it was").isEmpty();
    }

    @Test
    void newSettingsGiveANewLbConfigAndUnchangedOnesNone() {
        TargetGroupTracker t = new TargetGroupTracker(WEB, ZoneLookup.fromTargetHealth());
        assertThat(configs(t.settings(WEB, 1_000))).hasSize(1);
        assertThat(t.settings(WEB, 2_000)).isEmpty();

        TargetGroupInfo cut = new TargetGroupInfo(WEB.arn(), WEB.name(), WEB.lb(), WEB.targetType(),
                new CheckConfig("/health", 30_000, 2_000, 5, 2), true, new Thresholds(1, null), null);
        assertThat(configs(t.settings(cut, 3_000))).singleElement()
                .satisfies(c -> assertThat(c.getHealthCheck().getTimeoutMs()).isEqualTo(2_000));
    }

    @Test
    void instanceTargetsAreNamedByIdAndPortAndAnAnomalousHealthyTargetSaysSo() {
        TargetGroupInfo api = new TargetGroupInfo("arn:tg/api", "api", "app/web-lb/1", "instance", null, null, null, null);
        TargetGroupTracker t = new TargetGroupTracker(api, ZoneLookup.fromTargetHealth());
        TargetHealthDescription d = TargetHealthDescription.builder()
                .target(TargetDescription.builder().id("i-0123456789abcdef0").port(80).build())
                .targetHealth(TargetHealth.builder().state("healthy").build())
                .anomalyDetection(AnomalyDetection.builder().result("anomalous").mitigationInEffect("yes").build()).build();

        HealthCheckResult r = results(t.health(List.of(d), 1_000)).get(0);

        assertThat(r.getTarget()).isEqualTo("i-0123456789abcdef0:80");
        assertThat(r.getTargetIp()).isNull();
        assertThat(r.getAz()).isNull();
        assertThat(r.getReason()).isEqualTo("anomalous (mitigation in effect)");
        assertThat(r.getOutcome()).isEqualTo(CheckOutcome.pass);
    }

    @Test
    void attributesBecomeThresholdsAndCrossZone() {
        TargetGroup tg = TargetGroup.builder().targetGroupArn("arn:tg").targetGroupName("web").targetType("ip")
                .healthCheckPath("/h").healthCheckIntervalSeconds(10).healthCheckTimeoutSeconds(3).healthyThresholdCount(3)
                .unhealthyThresholdCount(2).build();
        LoadBalancer alb = LoadBalancer.builder().loadBalancerArn("arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/x/9")
                .type("application").build();
        TargetGroupInfo info = TargetGroupInfo.of(tg, Map.of(TargetGroupInfo.CROSS_ZONE, "use_load_balancer_configuration",
                TargetGroupInfo.ROUTING_COUNT, "2", TargetGroupInfo.ROUTING_PERCENT, "off",
                TargetGroupInfo.DNS_COUNT, "off", TargetGroupInfo.DNS_PERCENT, "37.5"), alb, Map.of());

        assertThat(info.lb()).isEqualTo("app/x/9");
        assertThat(info.crossZone()).as("an ALB's own cross-zone is always on").isTrue();
        assertThat(info.unhealthyStateRouting()).isEqualTo(new Thresholds(2, null));
        assertThat(info.dnsFailover()).isEqualTo(new Thresholds(null, 37.5));
        assertThat(info.check()).isEqualTo(new CheckConfig("/h", 10_000, 3_000, 3, 2));
        LoadBalancer nlb = LoadBalancer.builder().loadBalancerArn("arn:x:loadbalancer/net/y/1").type("network").build();
        assertThat(TargetGroupInfo.crossZone("use_load_balancer_configuration", nlb,
                Map.of(TargetGroupInfo.CROSS_ZONE, "false"))).isFalse();
        assertThat(TargetGroupInfo.crossZone("false", alb, Map.of())).isFalse();
    }
}
