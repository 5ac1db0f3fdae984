package io.hcwatch.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.parse.AlbAccessLogParser;
import io.hcwatch.parse.AlbHealthCheckLogParser;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.topology.Source;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulationTest {

    private static final ScenarioParams SHORT = Scenario.PING_FLOOD.defaults()
            .withTiming(Duration.ofMinutes(3), Duration.ofMinutes(2));
    private static final ScenarioParams QUIET = Scenario.ZONAL_GRAY_FAILURE.defaults()
            .withTiming(Duration.ofMinutes(4), Duration.ofMinutes(2));

    private static List<Telemetry> all(Scenario s, ScenarioParams p) {
        List<Telemetry> out = new ArrayList<>();
        Simulation.of(s, p).run(out::add);
        return out;
    }

    private static String digest(List<Telemetry> records) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (Telemetry t : records) {
            sha.update(t.source().id().getBytes());
            sha.update(Long.toString(t.eventTimeMillis()).getBytes());
            sha.update(t.value());
        }
        return java.util.HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOtherTraffic() throws Exception {
        String first = digest(all(Scenario.ZONAL_GRAY_FAILURE, QUIET));
        assertThat(digest(all(Scenario.ZONAL_GRAY_FAILURE, QUIET))).isEqualTo(first);
        assertThat(digest(all(Scenario.ZONAL_GRAY_FAILURE, QUIET.withSeed(8)))).isNotEqualTo(first);
    }

    @Test
    void recordsComeInEventTimeOrderWithinTheRunAndTheIteratorGivesTheSame() throws Exception {
        List<Telemetry> run = all(Scenario.ZONAL_GRAY_FAILURE, QUIET);
        long start = QUIET.start().toEpochMilli();
        long end = QUIET.end().toEpochMilli();
        long previous = Long.MIN_VALUE;
        for (Telemetry t : run) {
            assertThat(t.eventTimeMillis()).isGreaterThanOrEqualTo(previous).isBetween(start, end - 1);
            previous = t.eventTimeMillis();
        }
        List<Telemetry> pulled = new ArrayList<>();
        Simulation.of(Scenario.ZONAL_GRAY_FAILURE, QUIET).iterator().forEachRemaining(pulled::add);
        assertThat(digest(pulled)).isEqualTo(digest(run));
    }

    @Test
    void aSimulationRunsOnce() {
        Simulation sim = Simulation.of(Scenario.ZONAL_GRAY_FAILURE, QUIET);
        sim.run(t -> { });
        assertThatThrownBy(() -> sim.run(t -> { })).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyRecordIsItsRealFormatWithTheFieldsTheDetectorsRead() {
        Clock clock = Clock.fixed(SHORT.start(), ZoneOffset.UTC);
        AlbAccessLogParser alb = new AlbAccessLogParser();
        AlbHealthCheckLogParser albHealth = new AlbHealthCheckLogParser();
        HaproxyLogParser haproxy = new HaproxyLogParser(clock);
        HealthCheckResultJson health = new HealthCheckResultJson();
        LbConfigJson config = new LbConfigJson();
        Map<Source, Integer> counts = new HashMap<>();
        boolean[] ipv6Client = {false};
        boolean[] saturated = {false};
        boolean[] tarpit = {false};
        Map<String, LbConfig> configs = new LinkedHashMap<>();
        Simulation.of(Scenario.PING_FLOOD, SHORT).run(t -> {
            counts.merge(t.source(), 1, Integer::sum);
            switch (t.source()) {
                case ALB -> {
                    AlbRequest r = ok(alb.parse(t.value()), t);
                    assertThat(r.getFieldCount()).isEqualTo(33);
                    assertThat(r.getTargetGroup()).isIn("prod-web-tg", "prod-api-tg");
                    assertThat(r.getTime().toEpochMilli()).isEqualTo(t.eventTimeMillis());
                    ipv6Client[0] |= r.getClientIp().contains(":");
                }
                case ALB_HEALTH -> {
                    HealthCheckResult r = ok(albHealth.parse(t.value()), t);
                    assertThat(r.getTargetGroup()).isEqualTo("prod-api-tg");
                    assertThat(r.getTarget()).isEqualTo(r.getTargetIp() + ":" + r.getPort());
                }
                case HAPROXY -> {
                    Object r = ok(haproxy.parse(t.value()), t);
                    if (r instanceof HaproxyLine line) {
                        HaproxyRequest h = line.request();
                        assertThat(h.getFeconn()).isNotNull();
                        assertThat(h.getActconn()).isGreaterThanOrEqualTo(h.getFeconn());
                        assertThat(h.getTs().toEpochMilli()).isEqualTo(t.eventTimeMillis());
                        saturated[0] |= h.getFeconn() >= 256;
                        tarpit[0] |= "PT--".equals(h.getTerminationState());
                    }
                }
                case HEALTH -> {
                    HealthCheckResult r = ok(health.parse(t.value()), t);
                    assertThat(r.getAz()).startsWith("us-east-1");
                    assertThat(r.getCheck().getTimeoutMs()).isEqualTo(5000);
                    assertThat(r.getRegisteredAt()).isNotNull();
                    assertThat(t.key()).isEqualTo(r.getTarget());
                }
                case CONFIG -> {
                    LbConfig c = ok(config.parse(t.value()), t);
                    assertThat(t.key()).isEqualTo(c.getId());
                    configs.put(c.getId(), c);
                }
            }
        });
        // the simulator plays logs, checks and configs; HAProxy's polls (haproxy-stats) come from the collector only
        assertThat(counts).containsOnlyKeys(java.util.Arrays.stream(Source.values()).filter(s -> s != Source.HAPROXY_STATS).toList());
        assertThat(ipv6Client[0]).as("IPv6 clients").isTrue();
        assertThat(saturated[0] && tarpit[0]).as("lb1/hc-ping saturates, tarpit in use").isTrue();
        assertThat(configs).containsKeys("prod-web-tg", "prod-api-tg", "lb1", "lb1/hc-ping", "lb2/www");
        assertThat(configs.get("prod-web-tg").getRegisteredTargets()).isEqualTo(18);
        assertThat(configs.get("lb1/hc-ping").getMaxconn()).isEqualTo(256);
    }

    @Test
    void aRollingDeployTakesNewTargetsThroughInitialChecksBeforeTheOldOnesDrain() {
        ScenarioParams morning = Scenario.BASELINE.defaults().withStart(Instant.parse("2026-03-02T10:28:00Z"))
                .withTiming(Duration.ofMinutes(8), Duration.ZERO).withNoise(0);
        HealthCheckResultJson json = new HealthCheckResultJson();
        Map<String, List<HealthCheckResult>> byTarget = new LinkedHashMap<>();
        Simulation.of(Scenario.BASELINE, morning).run(t -> {
            if (t.source() == Source.HEALTH) {
                HealthCheckResult r = ok(json.parse(t.value()), t);
                byTarget.computeIfAbsent(r.getTarget(), k -> new ArrayList<>()).add(r);
            }
        });
        List<List<HealthCheckResult>> fresh = byTarget.values().stream()
                .filter(checks -> checks.get(0).getState() == TargetState.initial).toList();
        assertThat(fresh).hasSizeGreaterThanOrEqualTo(3);
        for (List<HealthCheckResult> checks : fresh) {
            assertThat(checks.get(0).getReason()).isEqualTo("Elb.InitialHealthChecking");
            assertThat(checks.get(0).getRegisteredAt().plusSeconds(5)).isAfter(checks.get(0).getTs());
            // healthy after the healthy threshold (3) of passing checks
            assertThat(checks.subList(0, 2)).allSatisfy(c -> assertThat(c.getState()).isEqualTo(TargetState.initial));
            assertThat(checks.get(2).getState()).isEqualTo(TargetState.healthy);
        }
        long drained = byTarget.values().stream().filter(checks -> checks.get(checks.size() - 1).getState() == TargetState.draining)
                .count();
        assertThat(drained).isEqualTo(fresh.size());
    }

    @Test
    void statusShowsTheEstateAsItIs() {
        Simulation sim = Simulation.of(Scenario.SHARED_DEPENDENCY, Scenario.SHARED_DEPENDENCY.defaults()
                .withTiming(Duration.ofMinutes(3), Duration.ofMinutes(1)));
        assertThat(sim.status().group("prod-web-tg")).isEqualTo(new SimulationStatus.GroupHealth("prod-web-tg", 18, 18));
        sim.run(t -> { });
        assertThat(sim.status().group("prod-web-tg").healthy()).isZero();
        assertThat(sim.status().records()).isPositive();
        assertThat(sim.status().simulatedTime()).isEqualTo(sim.params().end().toEpochMilli());
    }

    @Test
    void haproxyLogsChecksOnlyWhenTheyChangeAndABackendLeftWithoutServers() {
        World world = new World(QUIET.withNoise(0));
        long refuseFrom = world.start() + 30_000;
        world.at(refuseFrom, () -> world.haproxy.pingNodes.forEach(n -> n.refusingUntil = refuseFrom + 20_000));
        world.begin();
        List<String> lines = new ArrayList<>();
        while (world.engine.step(t -> {
            if (t.source() == Source.HAPROXY && !t.text().contains(" [")) {
                lines.add(t.text());
            }
        })) {
            // run to the end
        }
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(l).contains("be-ping"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("Health check for server be-ping/ping1 failed, reason: Layer4"
                + " connection problem, check duration: 0ms, status: 2/3 UP."));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("is DOWN").contains(". 0 active and 0 backup servers left."));
        assertThat(lines).filteredOn(l -> l.endsWith("backend be-ping has no server available!")).hasSize(2);
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("is UP, reason: Layer7 check passed"));
    }

    @Test
    void scenariosAreFoundByNameOrAlias() {
        assertThat(Scenario.byName("timeout-cascade")).isEqualTo(Scenario.TIMEOUT_CUT);
        assertThat(Scenario.byName("Fail-Open")).isEqualTo(Scenario.FAIL_OPEN);
        assertThatThrownBy(() -> Scenario.byName("nope")).hasMessageContaining("timeout-cut");
    }

    @SuppressWarnings("unchecked")
    private static <T> T ok(ParseResult<? extends T> result, Telemetry t) {
        assertThat(result).as(t.text()).isInstanceOf(ParseResult.Ok.class);
        return ((ParseResult.Ok<T>) result).value();
    }
}
