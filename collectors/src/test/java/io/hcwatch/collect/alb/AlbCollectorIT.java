package io.hcwatch.collect.alb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.kafka.EmbeddedKafkaBroker;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The collector with the real AWS SDK against the ELBv2 stand-in and the in-process broker: a zone's
 * targets failing, a health-check timeout cut, throttling.
 */
class AlbCollectorIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EmbeddedKafkaBroker kafka;
    private ElbStandIn elb;
    private AlbCollector collector;
    private KafkaConsumer<String, String> consumer;
    private final List<JsonNode> configs = new CopyOnWriteArrayList<>();
    private final List<JsonNode> checks = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        kafka = EmbeddedKafkaBroker.start();
        kafka.createTopics(1, "lb-config", "health-check-results");
        elb = new ElbStandIn();
        consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(), "group.id", "alb-it",
                "auto.offset.reset", "earliest"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of("lb-config", "health-check-results"));
    }

    @AfterEach
    void stop() {
        if (collector != null) {
            collector.close();
        }
        consumer.close();
        elb.close();
        kafka.close();
    }

    private void startCollector(long healthMs, long configMs, double rate) {
        Properties p = elb.collectorProperties(kafka.bootstrapServers(), "web-lb");
        p.setProperty("aws.timeout.ms", "5000");
        p.setProperty("alb.health.interval.ms", Long.toString(healthMs));
        p.setProperty("alb.config.interval.ms", Long.toString(configMs));
        p.setProperty("alb.api.rate", Double.toString(rate));
        p.setProperty("alb.backoff.initial.ms", "200");
        AlbConfig config = AlbConfig.read(new ConfigReader(p), () -> null);
        collector = new AlbCollector(config, StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSTANDIN", "not-a-secret")));
        collector.start();
    }

    private void drain() {
        consumer.poll(Duration.ofMillis(100)).forEach(r -> {
            try {
                (r.topic().equals("lb-config") ? configs : checks).add(JSON.readTree(r.value()));
            } catch (java.io.IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private List<JsonNode> checksOf(String target) {
        return checks.stream().filter(c -> c.get("target").asText().equals(target)).toList();
    }

    @Test
    void aZonesTargetsTimingOutArePublishedWithTheirZoneWithinOnePollAndATimeoutCutAtTheDiscoveryThatSeesIt() {
        ElbStandIn.Lb lb = elb.addLb("web-lb", Map.of("us-east-1a", "subnet-8360a9e7", "us-east-1b", "subnet-b7d581c0"));
        ElbStandIn.Tg web = elb.addTg("web", lb, "ip");
        web.attributes.put("load_balancing.cross_zone.enabled", "false");
        web.attributes.put(TargetGroupInfo.ROUTING_COUNT, "2");
        web.attributes.put(TargetGroupInfo.DNS_PERCENT, "50");
        web.add("10.0.1.10", 8080, "us-east-1a");
        web.add("10.0.1.11", 8080, "us-east-1a");
        ElbStandIn.Target b1 = web.add("10.0.2.10", 8080, "us-east-1b");
        ElbStandIn.Target b2 = web.add("10.0.2.11", 8080, "us-east-1b");
        ElbStandIn.Tg api = elb.addTg("api", lb, "instance");
        api.add("i-0123456789abcdef0", 80, null).set("initial", "Elb.InitialHealthChecking", "Initial health checks in progress");
        elb.pageCap = 1; // two pages of target groups: the collector must follow NextMarker
        startCollector(1_000, 2_000, 20);

        await("the first LbConfig and a result per target").atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            drain();
            assertThat(configs).anySatisfy(c -> {
                assertThat(c.get("id").asText()).isEqualTo("web");
                assertThat(c.get("registered_targets").asInt()).isEqualTo(4);
            });
            assertThat(checks).extracting(c -> c.get("target").asText()).contains("10.0.1.10:8080", "10.0.1.11:8080",
                    "10.0.2.10:8080", "10.0.2.11:8080", "i-0123456789abcdef0:80");
        });
        JsonNode config = configs.stream().filter(c -> c.get("id").asText().equals("web")).reduce((a, b) -> b).orElseThrow();
        assertThat(config.get("kind").asText()).isEqualTo("target_group");
        assertThat(config.get("lb").asText()).isEqualTo("app/web-lb/50dc6c495c0c9188");
        assertThat(config.get("cross_zone").asBoolean()).isFalse();
        assertThat(config.get("unhealthy_state_routing").get("min_healthy_count").asInt()).isEqualTo(2);
        assertThat(config.get("unhealthy_state_routing").get("min_healthy_percent").isNull()).isTrue();
        assertThat(config.get("dns_failover").get("min_healthy_percent").asDouble()).isEqualTo(50.0);
        assertThat(config.get("health_check").get("timeout_ms").asInt()).isEqualTo(5_000);
        assertThat(config.get("health_check").get("interval_ms").asInt()).isEqualTo(30_000);
        assertThat(config.get("target_zones").get("10.0.2.11").asText()).isEqualTo("us-east-1b");
        assertThat(config.get("target_zones").get("10.0.2.11:8080").asText()).isEqualTo("us-east-1b");
        JsonNode first = checksOf("10.0.2.10:8080").get(0);
        assertThat(first.get("source").asText()).isEqualTo("alb");
        assertThat(first.get("state").asText()).isEqualTo("healthy");
        assertThat(first.get("outcome").asText()).isEqualTo("pass");
        assertThat(first.get("az").asText()).isEqualTo("us-east-1b");
        assertThat(first.get("target_group").asText()).isEqualTo("web");
        assertThat(first.get("target_ip").asText()).isEqualTo("10.0.2.10");
        assertThat(first.get("check").get("unhealthy_threshold").asInt()).isEqualTo(2);
        JsonNode instance = checksOf("i-0123456789abcdef0:80").get(0);
        assertThat(instance.get("state").asText()).isEqualTo("initial");
        assertThat(instance.get("reason").asText()).isEqualTo("Elb.InitialHealthChecking");
        assertThat(instance.get("az").isNull()).as("an instance target's zone needs EC2").isTrue();

        // zone b's targets time out
        long pollsBefore = elb.count("DescribeTargetHealth", web.arn);
        b1.set("unhealthy", "Target.Timeout", "Request timed out");
        b2.set("unhealthy", "Target.Timeout", "Request timed out");
        await("zone b unhealthy").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            drain();
            for (String t : List.of("10.0.2.10:8080", "10.0.2.11:8080")) {
                assertThat(checksOf(t)).anySatisfy(c -> {
                    assertThat(c.get("state").asText()).isEqualTo("unhealthy");
                    assertThat(c.get("reason").asText()).isEqualTo("Target.Timeout");
                    assertThat(c.get("outcome").asText()).isEqualTo("timeout");
                    assertThat(c.get("az").asText()).isEqualTo("us-east-1b");
                });
            }
        });
        // the poll under way when the targets changed may have read them as they were; the next one must see them
        assertThat(elb.count("DescribeTargetHealth", web.arn) - pollsBefore).isLessThanOrEqualTo(2);
        assertThat(checksOf("10.0.1.10:8080")).as("zone a unchanged: published again only once per 30 s check interval")
                .extracting(c -> Instant.parse(c.get("ts").asText()).toEpochMilli()).satisfies(ts -> {
                    for (int i = 1; i < ts.size(); i++) {
                        assertThat(ts.get(i) - ts.get(i - 1)).isGreaterThanOrEqualTo(30_000L);
                    }
                });

        // the health-check timeout is cut from 5 s to 2 s
        long discoveriesBefore = elb.count("DescribeTargetGroups");
        web.timeoutSeconds = 2;
        await("LbConfig with the new timeout").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            drain();
            assertThat(configs).anySatisfy(c -> assertThat(c.get("health_check").get("timeout_ms").asInt()).isEqualTo(2_000));
        });
        // a round reads two pages; the one under way at the change may have read the old settings
        assertThat(elb.count("DescribeTargetGroups") - discoveriesBefore).isLessThanOrEqualTo(4);
        JsonNode cut = configs.stream().filter(c -> c.get("health_check").get("timeout_ms").asInt() == 2_000).findFirst().orElseThrow();
        assertThat(cut.get("registered_targets").asInt()).isEqualTo(4);
        assertThat(collector.registry().find("hcwatch.collector.api.calls").tag("api", "DescribeTargetHealth").counter().count())
                .isPositive();
    }

    @Test
    void throttlingBacksOffWithoutLeavingATargetGroupUnpolledForMoreThanTwoIntervals() {
        ElbStandIn.Lb lb = elb.addLb("web-lb", Map.of("us-east-1a", "subnet-8360a9e7"));
        List<ElbStandIn.Tg> groups = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ElbStandIn.Tg tg = elb.addTg("tg-" + i, lb, "ip");
            tg.add("10.0.1." + (10 + i), 80, "us-east-1a");
            groups.add(tg);
        }
        elb.throttle = n -> n % 3 == 0;
        long interval = 3_000;
        startCollector(interval, 20_000, 10);

        await("eight successful polls of every target group").atMost(Duration.ofSeconds(120)).until(() ->
                groups.stream().allMatch(tg -> elb.served.stream().filter(s -> tg.arn.equals(s.targetGroupArn())
                        && s.action().equals("DescribeTargetHealth") && s.status() == 200).count() >= 8));

        for (ElbStandIn.Tg tg : groups) {
            List<Long> ok = elb.served.stream().filter(s -> tg.arn.equals(s.targetGroupArn())
                    && s.action().equals("DescribeTargetHealth") && s.status() == 200).map(ElbStandIn.Served::nanos).toList();
            for (int i = 1; i < ok.size(); i++) {
                assertThat(Duration.ofNanos(ok.get(i) - ok.get(i - 1))).as(tg.name + " gap " + i)
                        .isLessThanOrEqualTo(Duration.ofMillis(2 * interval));
            }
        }
        double throttles = collector.registry().find("hcwatch.collector.api.throttles").counters().stream()
                .mapToDouble(c -> c.count()).sum();
        long throttled = elb.served.stream().filter(s -> s.status() == 400).count();
        assertThat(throttles).isPositive();
        double calls = collector.registry().find("hcwatch.collector.api.calls").counters().stream().mapToDouble(c -> c.count()).sum();
        // every request the stand-in served was counted (the collector may have one more on its way)
        assertThat(calls).isBetween((double) elb.served.size(), (double) elb.served.size() + 1);
        assertThat(throttles).isBetween((double) throttled, (double) throttled + 1);
    }
}
