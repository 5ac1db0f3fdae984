package io.hcwatch.simulate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The seed incidents (docs/contract.md, "Why: the incidents"), and a day of healthy traffic, as reproducible simulations.
 * Each names what happens, when it starts (its onset), which alerts hcwatch must raise and how
 * soon, which other alert types are acceptable, and where the real incident was detected.
 */
public enum Scenario {

    TIMEOUT_CUT("timeout-cut", List.of("timeout-cascade"), DemoCut.of(3, 8, 15),
            "The health-check timeout of prod-web-tg is cut from 5s to 2s while /health answers in 2.1-2.8s (p99) under"
                    + " the afternoon load. Slow checks time out, targets drop out one by one, the survivors get their"
                    + " traffic and slow down further, and the Auto Scaling group's cold replacements time out before they"
                    + " ever serve.",
            "18/18 targets unhealthy 2m37s after the change; a 47-minute outage",
            Map.of("fail_open_routing", Map.of(), "dns_failover", Map.of(),
                    // the cascade reaches some zone first; the alert must name the real cause
                    "zonal_failure", Map.of("diagnosis", "timeout_below_latency"))) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(15)).withOnset(Duration.ofMinutes(5))
                    .withAlbRequestsPerSecond(200).withUtilization(0.72).withHaproxyRequestsPerSecond(10);
        }

        @Override
        void configure(World w) {
            timeoutCut(w, 6);
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return timeoutCutExpectations();
        }
    },

    TIMEOUT_CUT_FAST_REPLACEMENT("timeout-cut-fast-replacement", List.of(), DemoCut.of(3, 8, 15),
            "The timeout cut of timeout-cut, with an Auto Scaling group that replaces every target the ALB marks"
                    + " unhealthy at once (no cap on instances in flight): each failing target drains within 20 seconds"
                    + " of being marked unhealthy, so at no moment are many of them failing side by side; only counting"
                    + " the replaced ones shows the whole fleet going down together.",
            "18/18 targets unhealthy 2m37s after the change; a 47-minute outage",
            // replacing without a cap empties the target group for moments: the ALB has no target to send to
            Map.of("fail_open_routing", Map.of(), "dns_failover", Map.of(), "no_healthy_targets", Map.of(),
                    "zonal_failure", Map.of("diagnosis", "timeout_below_latency"))) {
        @Override
        public ScenarioParams defaults() {
            return TIMEOUT_CUT.defaults();
        }

        @Override
        void configure(World w) {
            timeoutCut(w, Integer.MAX_VALUE);
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return timeoutCutExpectations();
        }
    },

    SHARED_DEPENDENCY("shared-dependency", List.of(), DemoCut.of(2, 4, 12),
            "prod-web-tg's /health queries the shared database. A security-group change cuts the database off: every"
                    + " target fails its next check with a fast 503, in every zone at once, while the requests that do not"
                    + " touch the database (most of them) keep succeeding. The Auto Scaling group starts replacing the"
                    + " whole tier; the replacements fail the same check.",
            "every instance failed its check in the same second and the Auto Scaling group cycled the whole tier",
            Map.of("fail_open_routing", Map.of(), "dns_failover", Map.of(), "replacement_churn", Map.of())) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(14)).withOnset(Duration.ofMinutes(4));
        }

        @Override
        void configure(World w) {
            AlbTargetGroup web = w.alb.web;
            web.deepCheck = true;
            web.checkBaseMs = 45;
            web.asgReplacesUnhealthy = true;
            w.at(w.onset(), () -> web.dependencyDown = true);
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return List.of(expect("correlated_failure", Duration.ofSeconds(60), Map.of("target_group", "prod-web-tg"),
                    Map.of("diagnosis", "shared_dependency_deep_check"),
                    "fast identical failures across all zones while traffic succeeds"));
        }
    },

    PING_FLOOD("ping-flood", List.of(), DemoCut.of(2, 2, 8),
            "A misconfigured dual-stack client floods one device's ping path on the hc-ping frontend of lb1 (its cached"
                    + " DNS answer): 300 req/s from one IPv4 address and more from addresses rotating through one IPv6 /64."
                    + " HAProxy's per-source rate rule tarpits the IPv4 side, holding a socket for 1s per request; the IPv6"
                    + " side slips past it and loads the backend. The frontend reaches maxconn 256 and good pings wait,"
                    + " queue out (sQ) or give up.",
            "detected after 41 minutes",
            Map.of()) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(8)).withOnset(Duration.ofMinutes(3))
                    .withHaproxyRequestsPerSecond(60).withAlbRequestsPerSecond(30).withFloodRequestsPerSecond(300);
        }

        @Override
        void configure(World w) {
            HaproxyModel h = w.haproxy;
            h.floodV4PerSecond = w.params.floodRequestsPerSecond();
            h.floodV6PerSecond = w.params.floodRequestsPerSecond() * 0.8;
            h.floodHost = 0;
            h.floodFrom = w.onset();
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return List.of(
                    expect("client_flood", Duration.ofSeconds(60),
                            Map.of("frontend", "hc-ping", "client", HaproxyModel.FLOOD_IPV4), Map.of(),
                            "the IPv4 address, named for blocking"),
                    expect("client_flood", Duration.ofSeconds(60),
                            Map.of("frontend", "hc-ping", "client", HaproxyModel.FLOOD_IPV6_64 + "::/64"), Map.of(),
                            "the IPv6 side, aggregated to its /64"),
                    expect("socket_slot_exhaustion", Duration.ofSeconds(60), Map.of("host", "lb1", "frontend", "hc-ping"),
                            Map.of(), "the frontend's connection slots run out"));
        }
    },

    ZONAL_GRAY_FAILURE("zonal-gray-failure", List.of(), DemoCut.of(2, 4, 12).throughAws(),
            "us-east-1b grays out: packet loss makes checks of its targets time out or fail to connect and some of its"
                    + " requests fail. Its targets drop out one after another until none is healthy, while the other zones"
                    + " are fine. Cross-zone load balancing is on, so ALB judges the pool (12 of 18 healthy), keeps the"
                    + " dead zone in DNS and never fails over or open: the failure is masked.",
            "with cross-zone on, the dead zone was masked by the healthy ones and never left DNS",
            Map.of("dns_failover", Map.of())) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(12)).withOnset(Duration.ofMinutes(4));
        }

        @Override
        void configure(World w) {
            AlbTargetGroup web = w.alb.web;
            long onset = w.onset();
            int zone = Math.min(1, web.gray.length - 1);
            w.at(onset, () -> web.gray[zone] = 0.6);
            w.at(onset + 60_000, () -> web.gray[zone] = 0.8);
            w.at(onset + 120_000, () -> web.gray[zone] = 0.9);
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            String zone = AlbModel.zoneName(Math.min(1, p.zones() - 1));
            return List.of(
                    expect("gray_failure", Duration.ofSeconds(60), Map.of("target_group", "prod-web-tg", "zone", zone),
                            Map.of("checks", "passing"), "the zone's requests fail while most of its targets still pass checks"),
                    expect("zonal_failure", Duration.ofMinutes(3), Map.of("target_group", "prod-web-tg", "zone", zone),
                            Map.of("masked", "true"), "one zone dead, the others clean, cross-zone on"));
        }
    },

    GRAY_ZONE("gray-zone", List.of(), DemoCut.of(2, 3, 8),
            "A bad network path in us-east-1b: connections from the load balancer to that zone's targets break or stall"
                    + " (30% of its requests answered 502, a p99 near 4s) while /health, one short request, stays fast and"
                    + " passes. Every target stays healthy, nothing fails over; users behind one zone in three get errors.",
            "a zone grayed out before its checks failed; in the ping flood, requests took seconds before anything alerted",
            Map.of()) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(9)).withOnset(Duration.ofMinutes(4));
        }

        @Override
        void configure(World w) {
            AlbTargetGroup web = w.alb.web;
            int zone = Math.min(1, web.gray.length - 1);
            w.at(w.onset(), () -> {
                web.requestErrors[zone] = 0.3;
                // ~3% of the answered requests stall: the zone's p99 sits at the stall
                web.requestStalls[zone] = 0.03;
            });
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return List.of(expect("gray_failure", Duration.ofSeconds(60),
                    Map.of("target_group", "prod-web-tg", "zone", AlbModel.zoneName(Math.min(1, p.zones() - 1))),
                    Map.of("checks", "passing"), "one zone answers 502s and stalls while its checks pass"));
        }
    },

    FAIL_OPEN("fail-open", List.of(), DemoCut.of(2, 10, 20),
            "prod-web-tg routes to unhealthy targets once fewer than 50% of them are healthy (unhealthy-state routing"
                    + " threshold 50%). A build with a leak reaches two thirds of the fleet; their /health starts failing"
                    + " one target after another until the pool falls below half, and ALB fails open: requests go to every"
                    + " target, unhealthy ones included, and some of them fail. The build is rolled back 9 minutes in.",
            "requests kept reaching targets marked unhealthy while the pool was below its minimum",
            Map.of("correlated_failure", Map.of(), "dns_failover", Map.of())) {
        @Override
        public ScenarioParams defaults() {
            // long enough after the rollback for the alerts to stay clear through their cool-down and resolve
            return base().withDuration(Duration.ofMinutes(22)).withOnset(Duration.ofMinutes(4));
        }

        @Override
        void configure(World w) {
            AlbTargetGroup web = w.alb.web;
            web.routingCount = null;
            web.routingPercent = 50.0;
            long onset = w.onset();
            List<AlbTarget> targets = AlbModel.interleaveByZone(web.active());
            // the build reaches two of every three targets, zone by zone in turn, 20 seconds apart
            int affected = 0;
            for (int i = 0; i < targets.size(); i++) {
                AlbTarget t = targets.get(i);
                if (i % 3 == (i / 3) % 3) {
                    continue;
                }
                t.leakFrom = onset + affected * 20_000L;
                t.leakRampMs = 120_000;
                affected++;
            }
            w.at(onset + 9 * 60_000L, () -> web.targets.forEach(t -> t.leakFrom = Long.MAX_VALUE));
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return List.of(
                    expect("gray_failure", Duration.ofSeconds(60), Map.of("target_group", "prod-web-tg"),
                            Map.of("reason", "errors", "checks", "passing"),
                            "the first leaking target's requests fail before its checks do"),
                    expect("fail_open_routing", Duration.ofMinutes(7), Map.of("target_group", "prod-web-tg"),
                            Map.of("requests_to_unhealthy_targets", ">0"),
                            "the pool falls below 50% healthy and ALB routes to unhealthy targets"));
        }
    },

    SHIPPER_STOPS("shipper-stops", List.of("telemetry-gap"), DemoCut.of(2, 8, 15),
            "rsyslog on lb2 stops shipping HAProxy's logs at the onset (its omkafka action suspended): HAProxy goes on"
                    + " serving and logging, but nothing of lb2 reaches Kafka, so every detector sees a quiet, healthy lb2."
                    + " The shipper is restarted 6 minutes later; what it held in memory is lost.",
            "not a load-balancer incident: a monitoring blind spot that looks exactly like a healthy host",
            Map.of()) {
        @Override
        public ScenarioParams defaults() {
            return base().withDuration(Duration.ofMinutes(15)).withOnset(Duration.ofMinutes(5));
        }

        @Override
        void configure(World w) {
            long onset = w.onset();
            w.at(onset, () -> w.stoppedShippers.add("lb2"));
            w.at(onset + 6 * 60_000L, () -> w.stoppedShippers.remove("lb2"));
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            // 30 s of silence (gap.after haproxy) and the evaluation step that sees it
            return List.of(expect("telemetry_gap", Duration.ofSeconds(60), Map.of("host", "lb2"), Map.of("source", "haproxy"),
                    "lb2's logs stop reaching Kafka while the other hosts' go on"));
        }
    },

    BASELINE("baseline", List.of(), DemoCut.whole(900), // a day in about a minute and a half
            "24 hours of healthy traffic: a daily load curve, single targets failing a check or two or dropping out for a"
                    + " minute, occasional slow checks, HAProxy hosts losing a check to a network hiccup, two rolling"
                    + " deploys of prod-web-tg and a nightly rolling restart of the HAProxy web servers.",
            "nothing to detect",
            Map.of()) {
        @Override
        public ScenarioParams defaults() {
            return base().withStart(Instant.parse("2026-03-02T00:00:00Z")).withDuration(Duration.ofHours(24))
                    .withOnset(Duration.ZERO).withAlbRequestsPerSecond(4.5).withUtilization(0.3)
                    .withHaproxyRequestsPerSecond(2);
        }

        @Override
        void configure(World w) {
            // quietest at 04:00 UTC, busiest at 16:00
            w.load = t -> {
                double hours = (Math.floorMod(t, 86_400_000L)) / 3_600_000.0;
                return 0.55 - 0.45 * Math.cos(2 * Math.PI * (hours - 4) / 24);
            };
            long day = Math.floorDiv(w.start(), 86_400_000L) * 86_400_000L;
            for (long at : new long[] {day + hours(10.5), day + hours(16)}) {
                if (at >= w.start()) {
                    w.at(at, () -> w.alb.rollingDeploy(w.alb.web));
                }
            }
            long restart = day + hours(3);
            if (restart >= w.start()) {
                for (int i = 0; i < w.haproxy.webNodes.size(); i++) {
                    HaproxyModel.Node node = w.haproxy.webNodes.get(i);
                    w.at(restart + i * 90_000L, () -> node.refusingUntil = w.now() + 12_000);
                }
            }
        }

        @Override
        public List<ExpectedAlert> expectations(ScenarioParams p) {
            return List.of();
        }
    };

    private final String id;
    private final List<String> aliases;
    private final DemoCut demo;
    private final String description;
    private final String realWorld;
    private final Map<String, Map<String, String>> alsoAllowed;

    Scenario(String id, List<String> aliases, DemoCut demo, String description, String realWorld,
             Map<String, Map<String, String>> alsoAllowed) {
        this.id = id;
        this.aliases = aliases;
        this.demo = demo;
        this.description = description;
        this.realWorld = realWorld;
        this.alsoAllowed = alsoAllowed;
    }

    /** The name used on the command line. */
    public String id() {
        return id;
    }

    public List<String> aliases() {
        return aliases;
    }

    public String description() {
        return description;
    }

    /** Where the seed incident was detected in real life. */
    public String realWorld() {
        return realWorld;
    }

    /** The parameters the scenario runs with unless told otherwise; onset and deadlines are tuned to them. */
    public abstract ScenarioParams defaults();

    /**
     * What {@code ./hcwatch demo} runs: the defaults with a shorter lead-in and only as much of the
     * aftermath as the story needs, so the demo ends within a couple of minutes.
     */
    public ScenarioParams demoParams() {
        return demo.leadIn() == null ? defaults() : shortened(defaults(), demo.leadIn(), demo.afterOnset());
    }

    /** Simulated seconds per second of the demo. */
    public double demoSpeed() {
        return demo.speed();
    }

    /** How the demo cuts a scenario: minutes kept before and after the onset (null: all of it), and its speed. */
    record DemoCut(Duration leadIn, Duration afterOnset, double speed, boolean aws) {
        static DemoCut of(int minutesBefore, int minutesAfter, double speed) {
            return new DemoCut(Duration.ofMinutes(minutesBefore), Duration.ofMinutes(minutesAfter), speed, false);
        }

        static DemoCut whole(double speed) {
            return new DemoCut(null, null, speed, false);
        }

        /** The demo delivers it as an AWS account would: the collector's records, ALB logs in S3 objects. */
        DemoCut throughAws() {
            return new DemoCut(leadIn, afterOnset, speed, true);
        }
    }

    /** Whether {@code ./hcwatch demo} shows this scenario on the AWS path ({@link AwsDelivery}). */
    public boolean demoThroughAws() {
        return demo.aws();
    }

    /** Alerts this scenario must raise (firing, severity warning or above). */
    public abstract List<ExpectedAlert> expectations(ScenarioParams params);

    /**
     * Alert types that may also fire (warning or above) without being wrong, each with details it
     * must then carry (written as in {@link ExpectedAlert}); anything else is a false positive.
     */
    public Map<String, Map<String, String>> alsoAllowed() {
        return alsoAllowed;
    }

    /** Sets up the incident on a freshly built world, before it starts. */
    abstract void configure(World w);

    /** Looks a scenario up by its name or an alias. */
    public static Scenario byName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Scenario s : values()) {
            if (s.id.equals(n) || s.aliases.contains(n)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name + "' (known: " + names() + ")");
    }

    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (Scenario s : values()) {
            sb.append(sb.length() > 0 ? ", " : "").append(s.id);
            s.aliases.forEach(a -> sb.append(" (alias ").append(a).append(')'));
        }
        return sb.toString();
    }

    /**
     * The timeout cut: /health answers in 2.1-2.8s (p99) under the evening load and the check's
     * timeout goes from 5s to 2s; the Auto Scaling group replaces what the ALB marks unhealthy, at
     * most {@code asgMaxInFlight} instances at a time.
     */
    private static void timeoutCut(World w, int asgMaxInFlight) {
        AlbTargetGroup web = w.alb.web;
        // a /health that exercises the application: under load its p99 sits at 2.1-2.8s
        web.checkBaseMs = 315;
        web.checkSigma = 0.2;
        web.stressSigma = 0.1;
        web.stressTauMs = 60_000;
        web.coldFactor = 12;
        web.coldTauMs = 180_000;
        web.asgReplacesUnhealthy = true;
        web.asgUnhealthyForMs = 10_000;
        web.asgMaxInFlight = asgMaxInFlight;
        long onset = w.onset();
        // the evening peak builds up as the change goes out
        w.load = t -> t < onset ? 0.92 : Math.min(1.06, 0.92 + 0.14 * (t - onset) / 180_000.0);
        w.at(onset, () -> {
            web.check = web.check.withTimeout(2_000);
            w.alb.reconfigure(web);
        });
    }

    private static List<ExpectedAlert> timeoutCutExpectations() {
        return List.of(
                expect("health_check_config_risk", Duration.ofSeconds(5), Map.of("target_group", "prod-web-tg"),
                        Map.of("new_timeout_ms", "2000", "old_timeout_ms", "5000"),
                        "fires at the change itself, before the first check fails"),
                expect("health_latency_headroom", Duration.ofMinutes(2), Map.of("target_group", "prod-web-tg"), Map.of(),
                        "check latency is now at or above the timeout"),
                expect("correlated_failure", Duration.ofMinutes(5), Map.of("target_group", "prod-web-tg"),
                        Map.of("diagnosis", "timeout_below_latency"), "targets across zones time out together"),
                expect("replacement_churn", Duration.ofMinutes(10), Map.of("target_group", "prod-web-tg"), Map.of(),
                        "cold replacements time out before they are ever healthy"));
    }

    static ScenarioParams base() {
        return new ScenarioParams(7, Instant.parse("2026-03-03T14:00:00Z"), Duration.ofMinutes(15), Duration.ofMinutes(5),
                3, 6, 60, 0.35, 10, 2, 0, 1.0);
    }

    private static ScenarioParams shortened(ScenarioParams p, Duration beforeOnset, Duration afterOnset) {
        return p.withTiming(beforeOnset.plus(afterOnset), beforeOnset);
    }

    private static long hours(double h) {
        return Math.round(h * 3_600_000);
    }

    private static ExpectedAlert expect(String type, Duration within, Map<String, String> scope, Map<String, String> details,
                                        String why) {
        return new ExpectedAlert(type, within, scope, details, why);
    }
}
