package io.hcwatch.simulate;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.parse.HaproxyLineFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * HAProxy hosts in front of two backends. Each frontend has a connection-slot budget
 * ({@code maxconn}): a connection holds a slot from accept until it closes (the request, plus a
 * keep-alive pause, or the whole tarpit timeout for a tarpitted request); when every slot is
 * taken, new connections wait in the kernel backlog and are accepted as slots free up, and
 * clients that wait too long give up unlogged. Each server has its own {@code maxconn}: requests
 * beyond it wait in the server queue and leave with {@code sQ} (503) after {@code timeout queue}.
 * Every traffic line carries actconn/feconn/beconn/srv_conn and the queues. Health checks follow
 * HAProxy's rise/fall counter and are logged only when the counter moves
 * ({@code option log-health-checks}), with the server state and no-server messages.
 */
final class HaproxyModel {

    /** What sends a request: a normal client, or one side of a misbehaving dual-stack client. */
    enum Sender { LEGIT, FLOOD_V4, FLOOD_V6 }

    static final String FLOOD_IPV4 = "203.0.113.77";
    static final String FLOOD_IPV6_64 = "2001:db8:4e21:7a00";
    static final String FLOOD_DEVICE = "6f1c9a2e-4b7d-4c1e-9f1a-2b3c4d5e6f70";

    private static final int RISE = 2;
    private static final int FALL = 3;
    private static final int INTER_MS = 2_000;
    private static final int TIMEOUT_CHECK_MS = 1_000;

    /** A machine behind HAProxy; every host checks and uses it. */
    static final class Node {
        final String name;
        final String ip;
        final int port;
        final double serviceMs;
        long refusingUntil;

        Node(String name, String ip, int port, double serviceMs) {
            this.name = name;
            this.ip = ip;
            this.port = port;
            this.serviceMs = serviceMs;
        }
    }

    /** One host's view of a server: its check state and its connection slots. */
    static final class ServerView {
        final Node node;
        final int maxconn;
        final PriorityQueue<Long> busy = new PriorityQueue<>();
        boolean up = true;
        int health = RISE + FALL - 1;
        long blipUntil;

        ServerView(Node node, int maxconn) {
            this.node = node;
            this.maxconn = maxconn;
        }
    }

    static final class Backend {
        final String name;
        final List<ServerView> servers = new ArrayList<>();
        int timeoutQueueMs = 1_000;
        int next;

        Backend(String name) {
            this.name = name;
        }

        int up() {
            int n = 0;
            for (ServerView s : servers) {
                if (s.up) {
                    n++;
                }
            }
            return n;
        }

        int connections(long now) {
            int n = 0;
            for (ServerView s : servers) {
                release(s.busy, now);
                n += s.busy.size();
            }
            return n;
        }
    }

    static final class Frontend {
        final String name;
        final boolean ssl;
        final Backend backend;
        final double share;
        final String domain;
        final PriorityQueue<Long> connections = new PriorityQueue<>();
        int maxconn;
        int tarpitMs = 1_000;
        long dropped;

        Frontend(String name, boolean ssl, Backend backend, double share, String domain, int maxconn) {
            this.name = name;
            this.ssl = ssl;
            this.backend = backend;
            this.share = share;
            this.domain = domain;
            this.maxconn = maxconn;
        }
    }

    static final class Host {
        final String name;
        final int pid;
        final List<Frontend> frontends = new ArrayList<>();
        int maxconn = 4_000;

        Host(String name, int pid) {
            this.name = name;
            this.pid = pid;
        }

        Frontend frontend(String name) {
            for (Frontend f : frontends) {
                if (f.name.equals(name)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("no frontend " + name + " on " + this.name);
        }

        int actconn() {
            int n = 0;
            for (Frontend f : frontends) {
                n += f.connections.size();
            }
            return n;
        }
    }

    private record Arrival(long at, Sender sender, int client) {
    }

    private final World w;
    private final Dice traffic;
    private final Dice checks;
    private final HaproxyLineFormat format = new HaproxyLineFormat();
    private final ClientPool browsers;
    private final ClientPool devices;
    final List<Node> webNodes = new ArrayList<>();
    final List<Node> pingNodes = new ArrayList<>();
    final List<Host> hosts = new ArrayList<>();

    /** The flood: requests per second of each side, the host its cached DNS answer points at, from when. */
    double floodV4PerSecond;
    double floodV6PerSecond;
    int floodHost;
    long floodFrom = Long.MAX_VALUE;
    long floodUntil = Long.MAX_VALUE;
    /** How long the backend takes for the flooded, unknown device (a database miss). */
    double floodServiceMs = 300;

    HaproxyModel(World w, Dice setup) {
        this.w = w;
        this.traffic = w.haproxyDice.split();
        this.checks = w.haproxyDice.split();
        this.browsers = ClientPool.create(setup.split(), 8_000, 0.3, 0.85, false);
        this.devices = ClientPool.create(setup.split(), 6_000, 0.45, 0.6, true);
        for (int i = 1; i <= 6; i++) {
            webNodes.add(new Node("web" + i, "10.0.3." + (10 + i), 8080, 35));
        }
        for (int i = 1; i <= 4; i++) {
            pingNodes.add(new Node("ping" + i, "10.0.4." + (10 + i), 8081, 6));
        }
        for (int h = 1; h <= w.params.haproxyHosts(); h++) {
            Host host = new Host("lb" + h, 4240 + h);
            Backend web = new Backend("be-web");
            webNodes.forEach(n -> web.servers.add(new ServerView(n, 64)));
            Backend ping = new Backend("be-ping");
            // pings are quick: a request that waits half a second for a server is better refused
            ping.timeoutQueueMs = 500;
            pingNodes.forEach(n -> ping.servers.add(new ServerView(n, 6)));
            host.frontends.add(new Frontend("www", true, web, 0.4, "www.example.com", 3_000));
            host.frontends.add(new Frontend("hc-ping", false, ping, 0.6, "ping.example.com", 256));
            hosts.add(host);
        }
    }

    void begin() {
        long t0 = w.start();
        for (Host h : hosts) {
            w.writeConfig(new LbConfig(ConfigKind.haproxy_process, h.name, Instant.ofEpochMilli(t0), null, null, null, null,
                    null, null, h.name, null, h.maxconn, null, null, null));
            for (Frontend f : h.frontends) {
                w.writeConfig(new LbConfig(ConfigKind.haproxy_frontend, h.name + "/" + f.name, Instant.ofEpochMilli(t0), null,
                        null, null, null, null, null, h.name, f.name, f.maxconn, null, null, null));
                for (ServerView s : f.backend.servers) {
                    // spread-checks: each server's checks start at their own offset
                    w.at(t0 + checks.uniform(0L, INTER_MS), () -> check(h, f.backend, s));
                }
            }
        }
        w.every(t0, 1000, this::tick);
    }

    long dropped() {
        long n = 0;
        for (Host h : hosts) {
            for (Frontend f : h.frontends) {
                n += f.dropped;
            }
        }
        return n;
    }

    // ---- traffic -------------------------------------------------------------------------------

    private void tick() {
        long t = w.now();
        double load = w.load.applyAsDouble(t);
        for (int hi = 0; hi < hosts.size(); hi++) {
            Host h = hosts.get(hi);
            for (Frontend f : h.frontends) {
                List<Arrival> arrivals = new ArrayList<>();
                boolean ping = f.name.equals("hc-ping");
                ClientPool pool = ping ? devices : browsers;
                int n = traffic.poisson(w.params.haproxyRequestsPerSecond() * f.share * load);
                for (int i = 0; i < n; i++) {
                    arrivals.add(new Arrival(t + traffic.uniform(0L, 1000L), Sender.LEGIT, pool.sample(traffic)));
                }
                if (ping && hi == floodHost && t >= floodFrom && t < floodUntil) {
                    addFlood(arrivals, t, Sender.FLOOD_V4, floodV4PerSecond);
                    addFlood(arrivals, t, Sender.FLOOD_V6, floodV6PerSecond);
                }
                arrivals.sort((a, b) -> Long.compare(a.at, b.at));
                for (Arrival a : arrivals) {
                    request(h, f, a, pool);
                }
            }
        }
    }

    private void addFlood(List<Arrival> arrivals, long t, Sender sender, double rate) {
        int n = traffic.poisson(rate);
        for (int i = 0; i < n; i++) {
            arrivals.add(new Arrival(t + traffic.uniform(0L, 1000L), sender, -1));
        }
    }

    private static void release(PriorityQueue<Long> slots, long now) {
        while (!slots.isEmpty() && slots.peek() <= now) {
            slots.poll();
        }
    }

    private void request(Host h, Frontend f, Arrival a, ClientPool pool) {
        release(f.connections, a.at);
        long accept = a.at;
        if (f.connections.size() >= f.maxconn) {
            // every slot is taken: the connection waits in the backlog for the next one to free
            long freed = f.connections.poll();
            long patience = a.sender == Sender.LEGIT ? 3_000 : 10_000;
            if (freed - a.at > patience) {
                f.connections.add(freed);
                f.dropped++;
                return;
            }
            accept = Math.max(accept, freed);
        }
        String clientIp = switch (a.sender) {
            case LEGIT -> pool.address(a.client);
            case FLOOD_V4 -> FLOOD_IPV4;
            case FLOOD_V6 -> ClientPool.ipv6In(FLOOD_IPV6_64, traffic);
        };
        String uri = uri(f, a, pool);
        // a bare record and setters: the generated builder copies every field's default, which costs more than the line
        HaproxyRequest r = new HaproxyRequest();
        r.setFormat(HaproxyLogFormat.http);
        r.setTs(Instant.ofEpochMilli(accept));
        r.setHost(h.name);
        r.setProcess("haproxy");
        r.setPid(h.pid);
        r.setClientIp(clientIp);
        r.setClientPort(ClientPool.ephemeralPort(traffic));
        r.setFrontend(f.name);
        r.setSsl(f.ssl);
        r.setBackend(f.backend.name);
        r.setRetries(0);
        r.setHttpMethod(f.ssl && traffic.chance(0.15) ? "POST" : "GET");
        r.setHttpUri(uri);
        r.setHttpVersion(f.ssl && traffic.chance(0.5) ? "HTTP/2.0" : "HTTP/1.1");
        long hold;
        if (a.sender == Sender.FLOOD_V4 && f.tarpitMs > 0) {
            // http-request tarpit if { sc_http_req_rate(0) gt 50 }: the socket is held, then 500
            hold = f.tarpitMs;
            timings(r, "<NOSRV>", 0, f.tarpitMs, null, null, f.tarpitMs, 500, 0L, "PT--", 0, 0, 0);
        } else {
            hold = toServer(f, a, accept, r);
        }
        long idle = a.sender == Sender.LEGIT && f.ssl ? Math.round(Math.min(1_000, traffic.exponential(300))) : 0;
        f.connections.add(accept + hold + idle);
        r.setFeconn(f.connections.size());
        r.setActconn(h.actconn());
        w.writeHaproxy(h.name, accept, format.format(r));
    }

    /** Passes the request to a server of the frontend's backend; returns how long the connection stays busy. */
    private long toServer(Frontend f, Arrival a, long accept, HaproxyRequest r) {
        Backend be = f.backend;
        ServerView s = pickServer(be);
        if (s == null) {
            timings(r, "<NOSRV>", 0, 0, null, null, 0, 503, 212L, "SC--", 0, 0, 0);
            return 1;
        }
        if (accept < s.node.refusingUntil) {
            // the server is gone and HAProxy has not noticed yet: connection refused
            timings(r, s.node.name, 0, 0, null, null, 1, 503, 212L, "SC--", be.connections(accept), 0, 0);
            return 1;
        }
        release(s.busy, accept);
        long start = accept;
        Long taken = null;
        if (s.busy.size() >= s.maxconn) {
            taken = s.busy.poll();
            start = taken;
        }
        long wait = start - accept;
        int queued = wait > 0 ? (int) Math.min(500, 1 + wait * s.maxconn / Math.max(1, Math.round(s.node.serviceMs * 4))) : 0;
        if (wait > be.timeoutQueueMs) {
            s.busy.add(taken);
            timings(r, s.node.name, 0, be.timeoutQueueMs, null, null, be.timeoutQueueMs, 503, 212L, "sQ--",
                    be.connections(accept), s.busy.size(), queued);
            return be.timeoutQueueMs;
        }
        double serviceMs = a.sender == Sender.FLOOD_V6 ? floodServiceMs * traffic.lognormal(0.3)
                : s.node.serviceMs * traffic.lognormal(0.6) * (f.ssl ? 1 : 0.5);
        long service = Math.max(1, Math.round(serviceMs));
        int connect = traffic.chance(0.7) ? 0 : 1;
        s.busy.add(start + connect + service);
        int status = a.sender == Sender.FLOOD_V6 ? 404 : f.ssl && traffic.chance(0.01) ? 404 : 200;
        long total = wait + connect + service;
        timings(r, s.node.name, 0, (int) wait, connect, (int) service, (int) total, status,
                status == 200 ? 250L + traffic.index(f.ssl ? 30_000 : 200) : 180L, "----", be.connections(accept),
                s.busy.size(), queued);
        return total;
    }

    /** The server, timers (-1 as null), status, bytes, termination state and backend/server counters of a line. */
    private static void timings(HaproxyRequest r, String server, Integer tr, Integer tw, Integer tc, Integer trServer,
                                Integer ta, int status, long bytes, String termination, int beconn, int srvConn, int srvQueue) {
        r.setServer(server);
        r.setTr(tr);
        r.setTw(tw);
        r.setTc(tc);
        r.setTrServer(trServer);
        r.setTa(ta);
        r.setStatusCode(status);
        r.setBytesRead(bytes);
        r.setTerminationState(termination);
        r.setBeconn(beconn);
        r.setSrvConn(srvConn);
        r.setSrvQueue(srvQueue);
        r.setBackendQueue(0);
    }

    private ServerView pickServer(Backend be) {
        for (int i = 0; i < be.servers.size(); i++) {
            ServerView s = be.servers.get((be.next + i) % be.servers.size());
            if (s.up) {
                be.next = (be.next + i + 1) % be.servers.size();
                return s;
            }
        }
        return null;
    }

    private String uri(Frontend f, Arrival a, ClientPool pool) {
        if (a.sender != Sender.LEGIT) {
            return "/api/v1/devices/" + FLOOD_DEVICE + "/ping";
        }
        if (f.name.equals("hc-ping")) {
            return "/api/v1/devices/" + pool.id(a.client) + "/ping";
        }
        return switch (traffic.index(6)) {
            case 0 -> "/";
            case 1 -> "/api/cart?id=" + traffic.index(100_000);
            case 2 -> "/api/products/" + traffic.index(50_000);
            case 3 -> "/static/main." + Integer.toHexString(0x5a3f + traffic.index(4)) + ".css";
            case 4 -> "/api/account/" + traffic.uuid();
            default -> "/api/search?q=" + traffic.hex(5);
        };
    }

    // ---- health checks ---------------------------------------------------------------------------

    private void check(Host h, Backend be, ServerView s) {
        long now = w.now();
        boolean refused = now < s.node.refusingUntil;
        boolean timedOut = !refused && now < s.blipUntil;
        long duration;
        String reason;
        CheckOutcome outcome;
        Integer code = null;
        if (refused) {
            duration = 0;
            reason = "Layer4 connection problem";
            outcome = CheckOutcome.connect_error;
        } else if (timedOut) {
            duration = TIMEOUT_CHECK_MS + 1;
            reason = "Layer4 timeout";
            outcome = CheckOutcome.timeout;
        } else {
            duration = 1 + checks.index(4);
            reason = "Layer7 check passed";
            outcome = CheckOutcome.pass;
            code = 200;
        }
        long done = now + duration;
        boolean passed = outcome == CheckOutcome.pass;
        int before = s.health;
        boolean wasUp = s.up;
        if (passed) {
            if (s.up) {
                s.health = Math.min(RISE + FALL - 1, s.health + 1);
            } else if (s.health + 1 >= RISE) {
                s.up = true;
                s.health = RISE + FALL - 1;
            } else {
                s.health++;
            }
        } else if (s.up) {
            if (s.health > RISE) {
                s.health--;
            } else {
                s.up = false;
                s.health = 0;
            }
        } else {
            s.health = Math.max(0, s.health - 1);
        }
        if (s.health != before || s.up != wasUp) {
            HealthCheckResult r = checkResult(h, be, s, done, outcome, (int) duration, code, reason);
            int progress = s.up ? s.health - RISE + 1 : s.health;
            w.writeHaproxy(h.name, done, format.healthCheck(r, progress));
            if (s.up != wasUp) {
                r.setActiveServersLeft(be.up());
                w.writeHaproxy(h.name, done, format.serverState(r, 0));
                if (!s.up && be.up() == 0) {
                    w.writeHaproxy(h.name, done, format.noServerAvailable(new BackendEvent(Instant.ofEpochMilli(done), "haproxy",
                            h.name, be.name, BackendEventKind.no_server_available, null)));
                }
            }
        }
        w.at(now + INTER_MS, () -> check(h, be, s));
    }

    private static HealthCheckResult checkResult(Host h, Backend be, ServerView s, long ts, CheckOutcome outcome, int duration,
                                                 Integer code, String reason) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts))
                .setSource("haproxy")
                .setLb(h.name)
                .setTargetGroup(be.name)
                .setTarget(s.node.name)
                .setOutcome(outcome)
                .setLatencyMs(duration)
                .setStatusCode(code)
                .setState(s.up ? TargetState.healthy : TargetState.unhealthy)
                .setReason(reason)
                .setCheck(new CheckConfig(null, INTER_MS, TIMEOUT_CHECK_MS, RISE, FALL))
                .build();
    }
}
