package io.hcwatch.simulate;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.avro.v1.Thresholds;
import io.hcwatch.parse.AlbLogFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ALB and what stands behind it. Requests are routed the way ALB routes: to healthy targets,
 * or to every registered target when too few are healthy (fail-open, per the target group's
 * unhealthy-state-routing threshold; per zone when cross-zone is off, with zones below the DNS
 * threshold taken out of DNS). Target latency grows with load (requests per healthy target),
 * so losing targets slows the rest. Health checks run each target through ALB's state machine
 * (initial, healthy, unhealthy, with the target group's thresholds), and the Auto Scaling group
 * replaces instances the ALB marks unhealthy with new ones that start cold.
 */
final class AlbModel {

    private static final String[] AGENTS = {
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
        "okhttp/4.12.0",
        "python-requests/2.32.3",
        "ShopApp/7.4.1 (Android 15)",
    };
    private static final String CERT = "arn:aws:acm:" + World.REGION + ":" + World.ACCOUNT
            + ":certificate/0a1b2c3d-1111-2222-3333-444455556666";
    private static final String[] SEARCH = {"shoes", "laptop", "coffee", "lamp", "gift", "headphones", "desk", "tent"};

    /** A route of the service: method, path template, share of requests, relative cost, whether it queries the database. */
    record Route(String method, String template, double weight, double cost, boolean database) {
    }

    private static final Route[] WEB_ROUTES = {
        new Route("GET", "/", 6, 0.5, false),
        new Route("GET", "/static/app.7f3c9a1e.js", 5, 0.1, false),
        new Route("GET", "/favicon.ico", 2, 0.05, false),
        new Route("GET", "/api/v1/feed?page={n}", 12, 1.2, true),
        new Route("GET", "/api/v1/items/{uuid}", 25, 1.0, false),
        new Route("GET", "/api/v1/users/{n}/profile", 14, 0.8, false),
        new Route("GET", "/api/v1/search?q={q}", 10, 2.0, true),
        new Route("POST", "/api/v1/cart/items", 8, 1.5, false),
        new Route("GET", "/api/v1/orders/{n}", 10, 1.0, false),
        new Route("POST", "/login", 3, 2.5, true),
        new Route("GET", "/api/v1/recommendations?user={n}", 5, 3.0, false),
    };
    private static final Route[] API_ROUTES = {
        new Route("GET", "/api/v2/devices/{uuid}", 40, 0.8, false),
        new Route("POST", "/api/v2/events", 30, 1.0, false),
        new Route("GET", "/api/v2/status", 10, 0.2, false),
        new Route("GET", "/api/v2/devices/{uuid}/config", 20, 0.6, false),
    };

    private final World w;
    private final Dice setup;
    private final Dice traffic;
    private final Dice checks;
    private final Dice ops;
    private final ClientPool clients;
    final AlbTargetGroup web;
    final AlbTargetGroup api;
    final List<AlbTargetGroup> groups;
    private long requests;

    AlbModel(World w, Dice setup) {
        this.w = w;
        this.setup = setup;
        this.traffic = w.trafficDice.split();
        this.checks = w.checkDice.split();
        this.ops = w.opsDice.split();
        ScenarioParams p = w.params;
        this.clients = ClientPool.create(setup.split(), 20_000, 0.35, 0.85, false);
        web = new AlbTargetGroup("prod-web-tg", arn("prod-web-tg", "6d0ecf831eec9f09"), AlbTargetGroup.Feed.HEALTH_JSON,
                1, 8080, p.zones(), "www.example.com", 0, WEB_ROUTES);
        web.check = new CheckSpec("/health", 10_000, 5_000, 3, 3);
        web.trafficShare = 0.85;
        web.capacity = capacity(p.albRequestsPerSecond() * web.trafficShare, p.targets(), p.utilization());
        api = new AlbTargetGroup("prod-api-tg", arn("prod-api-tg", "0b7e21c4a9d35f18"), AlbTargetGroup.Feed.ALB_HEALTH_LOG,
                11, 9090, p.zones(), "api.example.com", 10, API_ROUTES);
        // AWS's defaults for a new target group
        api.check = new CheckSpec("/healthz", 30_000, 5_000, 5, 2);
        api.trafficShare = 0.15;
        api.capacity = capacity(p.albRequestsPerSecond() * api.trafficShare, 2 * p.zones(), Math.min(0.35, p.utilization()));
        api.requestBaseMs = 30;
        api.checkBaseMs = 8;
        groups = List.of(web, api);
        for (int z = 0; z < p.zones(); z++) {
            for (int i = 0; i < p.targetsPerZone(); i++) {
                addEstablished(web, z);
            }
            for (int i = 0; i < 2; i++) {
                addEstablished(api, z);
            }
        }
        web.registeredTargets = web.targets.size();
        api.registeredTargets = api.targets.size();
    }

    private static double capacity(double rate, int targets, double utilization) {
        return Math.max(0.5, rate / Math.max(1, targets) / utilization);
    }

    static String arn(String name, String id) {
        return "arn:aws:elasticloadbalancing:" + World.REGION + ":" + World.ACCOUNT + ":targetgroup/" + name + "/" + id;
    }

    static String zoneName(int zone) {
        return World.REGION + (char) ('a' + zone);
    }

    private void addEstablished(AlbTargetGroup tg, int zone) {
        long registered = w.start() - setup.uniform(2L * 86_400_000, 30L * 86_400_000);
        tg.targets.add(new AlbTarget(instanceId(setup), address(tg, zone, setup), tg.port, zone, registered, registered,
                setup.uniform(0.9, 1.15), TargetState.healthy));
    }

    private static String instanceId(Dice d) {
        return "i-0" + d.hex(16);
    }

    private static String address(AlbTargetGroup tg, int zone, Dice d) {
        return "10.0." + (tg.subnet + zone) + "." + (10 + d.index(240));
    }

    void begin() {
        long t0 = w.start();
        for (AlbTargetGroup tg : groups) {
            w.writeConfig(config(tg, t0));
            for (AlbTarget t : tg.targets) {
                w.at(t0 + checks.uniform(0, tg.check.intervalMs()), () -> check(tg, t));
            }
        }
        w.every(t0, 1000, this::tick);
        w.every(t0 + 5_000, 10_000, this::autoScaling);
    }

    LbConfig config(AlbTargetGroup tg, long ts) {
        return new LbConfig(ConfigKind.target_group, tg.name, Instant.ofEpochMilli(ts), World.LB, tg.crossZone,
                tg.registeredTargets, new Thresholds(tg.routingCount, tg.routingPercent),
                new Thresholds(tg.dnsCount, tg.dnsPercent), tg.check.toAvro(), null, null, null, null, null, null);
    }

    /** A configuration change, applied to the next checks and announced on the config topic. */
    void reconfigure(AlbTargetGroup tg) {
        w.writeConfig(config(tg, w.now()));
    }

    long requests() {
        return requests;
    }

    // ---- traffic ---------------------------------------------------------------------------

    private void tick() {
        long t = w.now();
        double load = w.load.applyAsDouble(t);
        for (AlbTargetGroup tg : groups) {
            Router router = new Router(tg);
            int n = traffic.poisson(w.params.albRequestsPerSecond() * tg.trafficShare * load);
            for (int i = 0; i < n; i++) {
                request(tg, router.pick(traffic), t + traffic.uniform(0L, 1000L));
            }
            for (AlbTarget target : tg.targets) {
                // smoothed over ~8s: queues build and drain over seconds, not per request
                target.rate += (target.routedThisTick - target.rate) * 0.12;
                target.routedThisTick = 0;
            }
        }
    }

    /** Who gets requests this second: healthy targets, or all of them when the group fails open. */
    private static final class Router {
        private final AlbTargetGroup tg;
        private final List<AlbTarget> pool;
        private final List<List<AlbTarget>> zones = new ArrayList<>();

        Router(AlbTargetGroup tg) {
            this.tg = tg;
            List<AlbTarget> active = tg.active();
            if (tg.crossZone) {
                pool = routable(tg, active);
                return;
            }
            pool = null;
            List<List<AlbTarget>> all = new ArrayList<>();
            List<List<AlbTarget>> inDns = new ArrayList<>();
            for (int z = 0; z < tg.gray.length; z++) {
                List<AlbTarget> members = new ArrayList<>();
                for (AlbTarget t : active) {
                    if (t.zone == z) {
                        members.add(t);
                    }
                }
                if (members.isEmpty()) {
                    continue;
                }
                int healthy = (int) members.stream().filter(AlbTarget::healthy).count();
                List<AlbTarget> routable = routable(tg, members);
                all.add(routable);
                if (!tg.leavesDns(healthy, members.size())) {
                    inDns.add(routable);
                }
            }
            // when every zone is below the DNS threshold ALB keeps them all
            zones.addAll(inDns.isEmpty() ? all : inDns);
        }

        private static List<AlbTarget> routable(AlbTargetGroup tg, List<AlbTarget> members) {
            List<AlbTarget> healthy = new ArrayList<>();
            for (AlbTarget t : members) {
                if (t.healthy()) {
                    healthy.add(t);
                }
            }
            return tg.failsOpen(healthy.size(), members.size()) ? members : healthy;
        }

        AlbTarget pick(Dice d) {
            List<AlbTarget> candidates = pool;
            if (candidates == null) {
                if (zones.isEmpty()) {
                    return null;
                }
                candidates = zones.get(d.index(zones.size()));
            }
            return candidates.isEmpty() ? null : candidates.get(d.index(candidates.size()));
        }
    }

    static double slowdown(double utilization) {
        if (utilization < 0.9) {
            return 1 / (1 - Math.max(0, utilization));
        }
        return Math.min(60, 10 + (utilization - 0.9) * 150);
    }

    static double cold(AlbTargetGroup tg, AlbTarget t, long now) {
        return 1 + (tg.coldFactor - 1) * Math.exp(-(now - t.bootedAt) / (double) tg.coldTauMs);
    }

    private void request(AlbTargetGroup tg, AlbTarget target, long arrival) {
        requests++;
        int client = clients.sample(traffic);
        Route route = pickRoute(tg);
        String method = route.method();
        String url = "https://" + tg.domain + ":443" + expand(route.template());
        boolean h2 = traffic.chance(0.2);
        // a bare record and setters: the generated builder copies every field's default, which costs more than the line
        AlbRequest r = new AlbRequest();
        r.setType(h2 ? "h2" : "https");
        r.setElb(World.LB);
        r.setClientIp(clients.address(client));
        r.setClientPort(ClientPool.ephemeralPort(traffic));
        r.setRequestMethod(method);
        r.setRequestUrl(url);
        r.setRequestProtocol(h2 ? "HTTP/2.0" : "HTTP/1.1");
        r.setUserAgent(AGENTS[traffic.index(AGENTS.length)]);
        r.setSslCipher("TLS_AES_128_GCM_SHA256");
        r.setSslProtocol("TLSv1.3");
        r.setTargetGroupArn(tg.arn);
        r.setTargetGroup(tg.name);
        r.setTraceId("Root=1-" + Long.toHexString(arrival / 1000) + "-" + traffic.hex(24));
        r.setDomainName(tg.domain);
        r.setChosenCertArn(CERT);
        r.setMatchedRulePriority(tg.rulePriority);
        r.setRequestCreationTime(Instant.ofEpochMilli(arrival));
        r.setActionsExecuted("forward");
        r.setConnTraceId("TID_" + traffic.hex(32));
        r.setReceivedBytes((long) (180 + traffic.index(700)));
        r.setFieldCount(33);
        long done;
        if (target == null) {
            // nothing registered to route to: ALB answers itself
            done = arrival + 1;
            r.setElbStatusCode(503);
            r.setSentBytes(162L);
        } else {
            target.routedThisTick++;
            double rho = target.rate / tg.capacity;
            double ms = tg.requestBaseMs * route.cost() * slowdown(rho) * cold(tg, target, arrival)
                    * target.factor * traffic.lognormal(0.5);
            double gray = tg.gray[target.zone];
            ms *= 1 + 3 * gray;
            r.setTargetIp(target.ip);
            r.setTargetPort(target.port);
            r.setTargetPortList(target.address());
            r.setRequestProcessingTime(0.0);
            // dice drawn only in a zone with such a fault: every other scenario keeps its random stream
            double errors = tg.requestErrors[target.zone];
            boolean brokenConnection = errors > 0 && traffic.chance(errors);
            double stalls = tg.requestStalls[target.zone];
            if (stalls > 0 && traffic.chance(stalls)) {
                ms += tg.stallMs * traffic.uniform(0.85, 1.15);
            }
            if (brokenConnection || gray > 0 && traffic.chance(gray * 0.5)) {
                // the target's connection dies in the gray zone: ALB answers 502
                done = arrival + 1 + Math.round(traffic.uniform(5, 3000));
                r.setElbStatusCode(502);
                r.setSentBytes(272L);
            } else if (ms >= 60_000) {
                done = arrival + 60_000;
                r.setElbStatusCode(504);
                r.setSentBytes(202L);
            } else {
                int status = status(tg, target, route, rho, arrival);
                long elapsed = Math.max(1, Math.round(ms));
                done = arrival + elapsed;
                r.setTargetProcessingTime(elapsed / 1000.0);
                r.setResponseProcessingTime(0.0);
                r.setElbStatusCode(status);
                r.setTargetStatusCode(status);
                r.setTargetStatusCodeList(Integer.toString(status));
                r.setSentBytes(status >= 400 ? 190L + traffic.index(200) : 300L + traffic.index(20_000));
            }
        }
        r.setTime(Instant.ofEpochMilli(done));
        w.writeAlb(done, AlbLogFormat.format(r));
    }

    private int status(AlbTargetGroup tg, AlbTarget target, Route route, double rho, long at) {
        if (traffic.chance(target.leakFailure(at) * 0.5)) {
            return 500;
        }
        if (tg.dependencyDown && route.database() && traffic.chance(0.25)) {
            return 500;
        }
        if (rho > 1.05 && traffic.chance(Math.min(0.6, (rho - 1) * 0.5))) {
            return 503;
        }
        if (route.template().startsWith("/static") && traffic.chance(0.3)) {
            return 304;
        }
        if (route.template().equals("/login")) {
            return traffic.chance(0.1) ? 401 : 302;
        }
        return traffic.chance(0.006) ? 404 : 200;
    }

    private Route pickRoute(AlbTargetGroup tg) {
        double x = traffic.uniform() * tg.routeWeight;
        for (Route r : tg.routes) {
            x -= r.weight();
            if (x < 0) {
                return r;
            }
        }
        return tg.routes[tg.routes.length - 1];
    }

    private String expand(String template) {
        if (template.indexOf('{') < 0) {
            return template;
        }
        return template.replace("{uuid}", traffic.uuid())
                .replace("{n}", Integer.toString(1 + traffic.index(250_000)))
                .replace("{q}", SEARCH[traffic.index(SEARCH.length)]);
    }

    // ---- health checks -----------------------------------------------------------------------

    private void check(AlbTargetGroup tg, AlbTarget t) {
        if (t.draining || !tg.targets.contains(t)) {
            return;
        }
        long now = w.now();
        CheckSpec spec = tg.check;
        double decay = Math.exp(-(now - t.stressAt) / (double) tg.stressTauMs);
        t.stress = t.stress * decay + tg.stressSigma * Math.sqrt(1 - decay * decay) * checks.gaussian();
        t.stressAt = now;
        double rho = t.rate / tg.capacity;
        double ms = tg.checkBaseMs * t.factor * slowdown(rho) * cold(tg, t, now) * Math.exp(t.stress)
                * checks.lognormal(tg.checkSigma) * t.slowNextCheck;
        t.slowNextCheck = 1;
        double gray = tg.gray[t.zone];
        CheckOutcome outcome;
        Integer code = null;
        String failure = null;
        if (tg.deepCheck && tg.dependencyDown) {
            // the check's database query is refused at once: a fast, identical 503 everywhere
            ms = checks.uniform(6, 30);
            outcome = CheckOutcome.http_status;
            code = 503;
            failure = "Target.ResponseCodeMismatch";
        } else if (gray > 0 && checks.chance(gray)) {
            if (checks.chance(0.75)) {
                ms = spec.timeoutMs();
                outcome = CheckOutcome.timeout;
                failure = "Target.Timeout";
            } else {
                ms = checks.uniform(1, 4);
                outcome = CheckOutcome.connect_error;
                failure = "Target.FailedHealthChecks";
            }
        } else if (checks.chance(t.leakFailure(now))) {
            ms = checks.uniform(3, 15);
            outcome = CheckOutcome.http_status;
            code = 500;
            failure = "Target.ResponseCodeMismatch";
        } else if (now < t.blipUntil) {
            if (t.blipTimesOut) {
                ms = spec.timeoutMs();
                outcome = CheckOutcome.timeout;
                failure = "Target.Timeout";
            } else {
                ms = checks.uniform(2, 20);
                outcome = CheckOutcome.http_status;
                code = 503;
                failure = "Target.ResponseCodeMismatch";
            }
        } else if (ms >= spec.timeoutMs()) {
            ms = spec.timeoutMs();
            outcome = CheckOutcome.timeout;
            failure = "Target.Timeout";
        } else {
            ms *= 1 + 2 * gray;
            outcome = CheckOutcome.pass;
            code = 200;
        }
        long latency = outcome == CheckOutcome.timeout ? spec.timeoutMs() + 1 : Math.max(1, Math.round(ms));
        long done = now + latency;
        if (outcome == CheckOutcome.pass) {
            t.passes++;
            t.fails = 0;
            if (t.state != TargetState.healthy && t.passes >= spec.healthyThreshold()) {
                t.state = TargetState.healthy;
            }
        } else {
            t.fails++;
            t.passes = 0;
            t.failReason = failure;
            if (t.state != TargetState.unhealthy && t.fails >= spec.unhealthyThreshold()) {
                t.state = TargetState.unhealthy;
                t.unhealthySince = done;
            }
        }
        String reason = switch (t.state) {
            case initial -> "Elb.InitialHealthChecking";
            case unhealthy -> t.failReason;
            default -> failure;
        };
        w.writeHealth(tg.feed, result(tg, t, done, outcome, (int) latency, code, t.state, reason));
        w.at(now + spec.intervalMs(), () -> check(tg, t));
    }

    private HealthCheckResult result(AlbTargetGroup tg, AlbTarget t, long ts, CheckOutcome outcome, Integer latency,
                                     Integer code, TargetState state, String reason) {
        HealthCheckResult.Builder b = HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts))
                .setSource("alb")
                .setTargetIp(t.ip)
                .setPort(t.port)
                .setOutcome(outcome)
                .setLatencyMs(latency)
                .setStatusCode(code)
                .setState(state)
                .setReason(reason);
        if (tg.feed == AlbTargetGroup.Feed.HEALTH_JSON && !w.aws()) {
            b.setLb(World.LB).setTargetGroup(tg.name).setTarget(t.id).setAz(zoneName(t.zone))
                    .setCheck(tg.check.toAvro()).setRegisteredAt(Instant.ofEpochMilli(t.registeredAt));
        } else {
            // the log names the group by ARN and the target by address
            b.setTargetGroup(tg.arn).setTarget(t.address());
        }
        return b.build();
    }

    // ---- fleet operations ------------------------------------------------------------------

    /** The Auto Scaling group's health pass: instances the ALB marks unhealthy are terminated and replaced. */
    private void autoScaling() {
        long now = w.now();
        for (AlbTargetGroup tg : groups) {
            if (!tg.asgReplacesUnhealthy) {
                continue;
            }
            for (AlbTarget t : new ArrayList<>(tg.targets)) {
                if (tg.launching >= tg.asgMaxInFlight) {
                    break;
                }
                if (!t.draining && !t.replacing && t.state == TargetState.unhealthy
                        && now - t.unhealthySince >= tg.asgUnhealthyForMs && now - t.registeredAt >= tg.asgGraceMs) {
                    replace(tg, t);
                }
            }
        }
    }

    private void replace(AlbTargetGroup tg, AlbTarget t) {
        t.replacing = true;
        deregister(tg, t);
        tg.launching++;
        w.at(w.now() + ops.uniform(tg.launchMinMs, tg.launchMaxMs), () -> {
            tg.launching--;
            register(tg, t.zone);
        });
    }

    /** Starts deregistration: the target drains (no new requests, no checks) and leaves after the delay. */
    void deregister(AlbTargetGroup tg, AlbTarget t) {
        if (t.draining) {
            return;
        }
        t.draining = true;
        if (tg.feed == AlbTargetGroup.Feed.HEALTH_JSON && !w.aws()) {
            w.writeHealth(tg.feed, result(tg, t, w.now(), CheckOutcome.other, null, null, TargetState.draining,
                    "Target.DeregistrationInProgress"));
        }
        w.at(w.now() + tg.deregistrationDelayMs, () -> tg.targets.remove(t));
    }

    /** A freshly launched instance registers; its application has only just started. */
    AlbTarget register(AlbTargetGroup tg, int zone) {
        long now = w.now();
        AlbTarget t = new AlbTarget(instanceId(ops), address(tg, zone, ops), tg.port, zone, now, now,
                ops.uniform(0.85, 1.2), TargetState.initial);
        tg.targets.add(t);
        w.at(now + ops.uniform(500L, 4_000L), () -> check(tg, t));
        return t;
    }

    /**
     * A rolling deploy: one new instance per zone at a time; the old ones are deregistered once
     * their replacements are healthy (or after five minutes, as a deploy tool gives up waiting).
     */
    void rollingDeploy(AlbTargetGroup tg) {
        deployBatch(tg, interleaveByZone(tg.active()), 0);
    }

    /** Targets reordered zone by zone in turn (a, b, c, a, b, c, ...), as deploys and rollouts go. */
    static List<AlbTarget> interleaveByZone(List<AlbTarget> targets) {
        List<List<AlbTarget>> byZone = new ArrayList<>();
        for (AlbTarget t : targets) {
            while (byZone.size() <= t.zone) {
                byZone.add(new ArrayList<>());
            }
            byZone.get(t.zone).add(t);
        }
        List<AlbTarget> out = new ArrayList<>();
        for (int i = 0; out.size() < targets.size(); i++) {
            for (List<AlbTarget> zone : byZone) {
                if (i < zone.size()) {
                    out.add(zone.get(i));
                }
            }
        }
        return out;
    }

    private void deployBatch(AlbTargetGroup tg, List<AlbTarget> old, int from) {
        if (from >= old.size()) {
            return;
        }
        int zones = tg.gray.length;
        List<AlbTarget> batch = old.subList(from, Math.min(old.size(), from + zones));
        List<AlbTarget> fresh = new ArrayList<>();
        for (AlbTarget t : batch) {
            fresh.add(register(tg, t.zone));
        }
        long giveUp = w.now() + 300_000;
        awaitHealthy(tg, batch, fresh, old, from + batch.size(), giveUp);
    }

    private void awaitHealthy(AlbTargetGroup tg, List<AlbTarget> batch, List<AlbTarget> fresh, List<AlbTarget> old,
                              int next, long giveUp) {
        w.at(w.now() + 5_000, () -> {
            boolean ready = fresh.stream().allMatch(AlbTarget::healthy);
            if (!ready && w.now() < giveUp) {
                awaitHealthy(tg, batch, fresh, old, next, giveUp);
                return;
            }
            batch.forEach(t -> deregister(tg, t));
            deployBatch(tg, old, next);
        });
    }
}
