package io.hcwatch.traffic;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.Check;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.FromNewerRelease;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.Pending;
import io.hcwatch.input.Summary;
import io.hcwatch.input.TargetSummary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Sums access-log lines of one input partition into one-second summaries per target group,
 * per HAProxy host and frontend, and per client scope, so the detectors downstream receive a
 * few summaries per second instead of every request: the repartition topics carry summaries,
 * which is what keeps hcwatch close to a plain pass-through in throughput. Health checks are
 * held beside them in batches ({@link CheckBatches}), kept in the same state store.
 */
public final class TrafficCombiner {

    private static final String[] TERMINATION_CODES = new String[128 * 128];

    private final int clientCapacity;
    /** Per target-group second: its counts and each target's latency sketch, found by one lookup per line. */
    private final Map<Bucket, TargetGroupSecond> targetGroups = new HashMap<>();
    private final Map<Bucket, HaproxyTraffic> frontends = new HashMap<>();
    /** Per frontend second: which clients held its connection slots, by slot-milliseconds. */
    private final Map<Bucket, SpaceSaving> slotHolders = new HashMap<>();
    private final Map<Bucket, ClientAccumulator> clients = new HashMap<>();
    private final CheckBatches checks = new CheckBatches(CHECKS_PER_BATCH);
    /** What a newer release left in the pending store, which this one cannot read: the ingest dead-letters it at start. */
    private final List<FromNewerRelease> fromNewerRelease = new ArrayList<>();

    /** ~256 × 120 bytes: a batch record of some 30 KB, far below the broker's 1 MB limit. */
    static final int CHECKS_PER_BATCH = 256;

    /** Counters of slot holders per frontend second: a flood has one or a few, and the alert names five at most. */
    static final int HOLDERS = 32;

    /** A summary's identity: up to three names and its second (a record, not a joined string: this runs per line). */
    private record Bucket(String a, String b, String c, long second) {
    }

    private record TargetGroupSecond(TargetTraffic traffic, TargetLatencies latencies) {

        TargetGroupSecond(TargetTraffic traffic) {
            this(traffic, new TargetLatencies());
        }
    }

    public TrafficCombiner(int clientCapacity) {
        this.clientCapacity = clientCapacity;
    }

    public void addAlb(AlbTrafficLine r) {
        long second = Math.floorDiv(r.time(), 1000) * 1000;
        int elb = r.elbStatusCode();
        // succeeded = the load balancer answered and not with a server error; 4xx are the client's business
        boolean succeeded = elb >= 0 && elb < 500;
        if (r.targetGroup() != null) {
            Bucket bucket = new Bucket(r.targetGroup(), null, null, second);
            TargetGroupSecond tg = targetGroups.computeIfAbsent(bucket,
                    k -> new TargetGroupSecond(newTargetTraffic(r.targetGroup(), r.elb(), second, null)));
            TargetTraffic t = tg.traffic();
            t.setRequests(t.getRequests() + 1);
            if (succeeded) {
                t.setSucceeded(t.getSucceeded() + 1);
            }
            if (elb >= 500) {
                t.setElb5xx(t.getElb5xx() + 1);
                if (elb == 503 && r.targetIp() == null) {
                    t.setNoTarget503(t.getNoTarget503() + 1);
                }
            }
            if (r.targetIp() != null) {
                double ms = Double.isNaN(r.targetProcessingTime()) ? Double.NaN : r.targetProcessingTime() * 1000;
                countTarget(tg, r.targetIp() + ":" + r.targetPort(), succeeded, ms);
            }
        }
        clients.computeIfAbsent(new Bucket("alb", r.elb(), null, second),
                        k -> new ClientAccumulator("alb", r.elb(), null, second, clientCapacity))
                .add(ClientKeys.client(r.clientIp()), ClientKeys.request(r.requestMethod(), r.requestUrl()), false);
    }

    /** A target group's second with nothing counted yet. */
    private static TargetTraffic newTargetTraffic(String targetGroup, String lb, long second, String source) {
        return new TargetTraffic(targetGroup, lb, second, 0L, 0L, 0L, 0L, new HashMap<>(), source);
    }

    /** One request answered by {@code target}, with its processing time in ms (NaN when not logged). */
    private static void countTarget(TargetGroupSecond tg, String target, boolean succeeded, double ms) {
        Map<String, TargetCount> byTarget = tg.traffic().getByTarget();
        TargetCount c = byTarget.get(target);
        if (c == null) {
            c = new TargetCount(0L, 0L, 0.0, null);
            byTarget.put(target, c);
        }
        c.setRequests(c.getRequests() + 1);
        if (succeeded) {
            c.setSucceeded(c.getSucceeded() + 1);
        }
        if (!Double.isNaN(ms)) {
            c.setProcessingMs(c.getProcessingMs() + ms);
            tg.latencies().record(target, ms);
        }
    }

    /**
     * An HAProxy http log line answered by a server: counted per backend and server, so a server
     * answering worse than the rest of its backend shows (gray_failure). Lines HAProxy answered
     * itself ({@code <NOSRV>}, {@code <BADREQ>}, tcp) name no server to compare.
     */
    private void addBackendServer(HaproxyRequest r, long second) {
        String server = r.getServer();
        if (r.getBackend() == null || server == null || server.isEmpty() || server.charAt(0) == '<'
                || r.getStatusCode() == null || r.getStatusCode() <= 0) {
            return;
        }
        boolean succeeded = r.getStatusCode() < 500;
        Bucket bucket = new Bucket(r.getBackend(), HAPROXY_BACKEND, null, second);
        TargetGroupSecond tg = targetGroups.computeIfAbsent(bucket,
                k -> new TargetGroupSecond(newTargetTraffic(r.getBackend(), null, second, HAPROXY_BACKEND)));
        TargetTraffic t = tg.traffic();
        t.setRequests(t.getRequests() + 1);
        if (succeeded) {
            t.setSucceeded(t.getSucceeded() + 1);
        } else {
            t.setElb5xx(t.getElb5xx() + 1);
        }
        countTarget(tg, server, succeeded, r.getTrServer() == null ? Double.NaN : r.getTrServer());
    }

    /** TargetTraffic.source of an HAProxy backend's per-server counts. */
    public static final String HAPROXY_BACKEND = "haproxy";

    /** The host of HAProxy lines that name none while no single collector host is known: a placeholder, not a machine. */
    public static final String UNNAMED_HOST = "unknown";

    public void addHaproxy(HaproxyRequest r) {
        long second = Math.floorDiv(r.getTs().toEpochMilli(), 1000) * 1000;
        String host = r.getHost() == null ? UNNAMED_HOST : r.getHost();
        addBackendServer(r, second);
        Bucket bucket = new Bucket(host, r.getFrontend(), null, second);
        HaproxyTraffic f = frontends.computeIfAbsent(bucket, k -> new HaproxyTraffic(
                host, r.getFrontend(), second, 0L, 0, 0, 0, 0L, 0L, new HashMap<>(), new ArrayList<>(), new HashMap<>(), 0L, 0L,
                new ArrayList<>()));
        f.setRequests(f.getRequests() + 1);
        if (r.getFeconn() != null) {
            f.setMaxFeconn(Math.max(f.getMaxFeconn(), r.getFeconn()));
        }
        if (r.getActconn() != null) {
            f.setMaxActconn(Math.max(f.getMaxActconn(), r.getActconn()));
        }
        if (r.getBackendQueue() != null) {
            f.setMaxBackendQueue(Math.max(f.getMaxBackendQueue(), r.getBackendQueue()));
        }
        if (r.getStatusCode() != null && r.getStatusCode() == 503) {
            f.setStatus503(f.getStatus503() + 1);
        }
        String termination = r.getTerminationState();
        boolean tarpit = false;
        boolean waited = r.getTw() != null && r.getTw() > 0;
        if (termination != null && termination.length() >= 2) {
            String code = terminationCode(termination);
            f.getTerminations().merge(code, 1L, Long::sum);
            if (r.getStatusCode() != null && r.getStatusCode() == 503) {
                f.getTerminations503().merge(code, 1L, Long::sum);
            }
            waited |= code.equals("sQ") || code.equals("PR") || code.equals("SC") || code.equals("PT");
            if (code.equals("PT")) {
                tarpit = true;
                Integer held = r.getTa() != null ? r.getTa() : r.getTw();
                if (held != null && held > 0) {
                    f.setTarpitMs(f.getTarpitMs() + held);
                }
            }
        }
        if (waited) {
            f.setWaited(f.getWaited() + 1);
        }
        // each logged request held a connection slot for its whole time, a tarpit's included
        Integer held = r.getTa();
        if (held != null && held > 0) {
            f.setSlotMs(f.getSlotMs() + held);
            // a line without a client address (unix sockets, anonymised logs) held a slot no client can be named for
            if (r.getClientIp() != null) {
                slotHolders.computeIfAbsent(bucket, k -> new SpaceSaving(HOLDERS)).add(ClientKeys.client(r.getClientIp()), held);
            }
        }
        if (r.getBackend() != null && !f.getBackends().contains(r.getBackend()) && f.getBackends().size() < 16) {
            f.getBackends().add(r.getBackend());
        }
        clients.computeIfAbsent(new Bucket("haproxy", r.getFrontend(), host, second),
                        k -> new ClientAccumulator("haproxy", r.getFrontend(), host, second, clientCapacity))
                .add(ClientKeys.client(r.getClientIp()),
                        r.getHttpMethod() == null && r.getHttpUri() == null ? null : ClientKeys.request(r.getHttpMethod(), r.getHttpUri()),
                        tarpit);
    }

    /** The summary with its slot holders' counters in place. */
    private HaproxyTraffic withHolders(Bucket bucket, HaproxyTraffic f) {
        SpaceSaving holders = slotHolders.get(bucket);
        f.setHolders(holders == null ? new ArrayList<>() : holders.counters());
        return f;
    }

    /**
     * The first two characters of a termination state as one shared String per code: this runs for
     * every HAProxy line, and a shared String also keeps its hash for the per-code counts. Filled
     * lazily; a race only makes two equal Strings, and Strings are safely published.
     */
    private static String terminationCode(String state) {
        char a = state.charAt(0);
        char b = state.charAt(1);
        if (a >= 128 || b >= 128) {
            return state.substring(0, 2);
        }
        String code = TERMINATION_CODES[a << 7 | b];
        if (code == null) {
            code = state.substring(0, 2);
            TERMINATION_CODES[a << 7 | b] = code;
        }
        return code;
    }

    public boolean isEmpty() {
        return targetGroups.isEmpty() && frontends.isEmpty() && clients.isEmpty() && checks.isEmpty();
    }

    /** Start of the oldest second still held (summaries or checks); {@code Long.MAX_VALUE} when nothing is. */
    public long oldestHeld() {
        long oldest = checks.oldestSecond();
        for (Bucket b : targetGroups.keySet()) {
            oldest = Math.min(oldest, b.second());
        }
        for (Bucket b : frontends.keySet()) {
            oldest = Math.min(oldest, b.second());
        }
        for (Bucket b : clients.keySet()) {
            oldest = Math.min(oldest, b.second());
        }
        return oldest;
    }

    /** Holds a health check; returns its target group's batch, taken out, once that is full (else null). */
    public List<HealthCheckResult> addCheck(HealthCheckResult h) {
        return checks.add(h);
    }

    /** Takes out every batch of health checks whose second started before {@code second}, oldest first. */
    public List<List<HealthCheckResult>> drainChecksBefore(long second) {
        return checks.drainBefore(second);
    }

    /** Takes out every summary whose second started before {@code second}; all of them with Long.MAX_VALUE. */
    public List<Summary> drainBefore(long second) {
        List<Summary> out = new ArrayList<>();
        for (Iterator<TargetGroupSecond> it = targetGroups.values().iterator(); it.hasNext(); ) {
            TargetGroupSecond tg = it.next();
            if (tg.traffic().getBucketStart() < second) {
                // the sketches leave as they are: encoded only if the summary is written out
                out.add(new TargetSummary(tg.traffic(), tg.latencies()));
                it.remove();
            }
        }
        for (Iterator<Map.Entry<Bucket, HaproxyTraffic>> it = frontends.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Bucket, HaproxyTraffic> e = it.next();
            if (e.getValue().getBucketStart() < second) {
                out.add(new FrontendSummary(withHolders(e.getKey(), e.getValue())));
                slotHolders.remove(e.getKey());
                it.remove();
            }
        }
        for (Iterator<ClientAccumulator> it = clients.values().iterator(); it.hasNext(); ) {
            ClientAccumulator c = it.next();
            if (c.bucketStart < second) {
                out.add(new ClientSummary(c.toSummary()));
                it.remove();
            }
        }
        return out;
    }

    public List<Summary> drainAll() {
        return drainBefore(Long.MAX_VALUE);
    }

    /** The pending summaries and held health checks, left in place (for the state store). */
    public List<Pending> snapshot() {
        List<Pending> out = new ArrayList<>();
        targetGroups.values().forEach(tg -> {
            // bytes, not live sketches: what is restored from a snapshot must not share the combiner's sketches
            tg.latencies().writeInto(tg.traffic());
            out.add(new TargetSummary(tg.traffic()));
        });
        frontends.forEach((k, f) -> out.add(new FrontendSummary(withHolders(k, f))));
        clients.values().forEach(c -> out.add(new ClientSummary(c.toSummary())));
        checks.snapshot().forEach(c -> out.add(new Check(c)));
        return out;
    }

    /** Puts back summaries taken by {@link #snapshot()} after a restart. */
    public void restore(List<? extends Pending> pending) {
        Pending.Cases<Void> restore = new Pending.Cases<>() {
            @Override
            public Void targetSummary(TargetSummary summary) {
                TargetTraffic t = summary.traffic();
                Bucket bucket = new Bucket(t.getTargetGroup(), t.getSource(), null, t.getBucketStart());
                TargetGroupSecond tg = new TargetGroupSecond(t);
                targetGroups.put(bucket, tg);
                t.getByTarget().forEach((target, c) -> tg.latencies().restore(target, LatencySketch.decode(c.getLatency())));
                return null;
            }

            @Override
            public Void frontendSummary(FrontendSummary summary) {
                HaproxyTraffic f = summary.traffic();
                Bucket bucket = new Bucket(f.getHost(), f.getFrontend(), null, f.getBucketStart());
                frontends.put(bucket, f);
                if (!f.getHolders().isEmpty()) {
                    SpaceSaving holders = new SpaceSaving(Math.max(HOLDERS, f.getHolders().size()));
                    f.getHolders().forEach(h -> holders.add(h.getKey(), h.getCount(), h.getError()));
                    slotHolders.put(bucket, holders);
                }
                return null;
            }

            @Override
            public Void clientSummary(ClientSummary summary) {
                ClientTraffic c = summary.traffic();
                clients.put(new Bucket(c.getPlatform(), c.getScope(), c.getHost(), c.getBucketStart()),
                        ClientAccumulator.from(c, clientCapacity));
                return null;
            }

            @Override
            public Void check(Check check) {
                checks.restore(check.result());
                return null;
            }
        };
        pending.forEach(p -> p.accept(restore));
    }

    /** Keeps, until {@link #takeFromNewerRelease()}, what a newer release left in the store and this one cannot read. */
    public void restoreFromNewerRelease(List<FromNewerRelease> records) {
        fromNewerRelease.addAll(records);
    }

    /** What a newer release left in the store, taken once (by the ingest at start, which dead-letters it). */
    public List<FromNewerRelease> takeFromNewerRelease() {
        List<FromNewerRelease> out = List.copyOf(fromNewerRelease);
        fromNewerRelease.clear();
        return out;
    }

    /** Per-second client and request-key counts of one scope on one host. */
    static final class ClientAccumulator {
        final String platform;
        final String scope;
        final String host;
        final long bucketStart;
        final SpaceSaving clients;
        final SpaceSaving requestKeys;
        long requests;
        long tarpitted;

        ClientAccumulator(String platform, String scope, String host, long bucketStart, int capacity) {
            this.platform = platform;
            this.scope = scope;
            this.host = host;
            this.bucketStart = bucketStart;
            this.clients = new SpaceSaving(capacity);
            this.requestKeys = new SpaceSaving(capacity);
        }

        void add(String client, String requestKey, boolean tarpit) {
            requests++;
            if (tarpit) {
                tarpitted++;
            }
            if (client != null) {
                clients.add(client, 1);
            }
            if (requestKey != null) {
                requestKeys.add(requestKey, 1);
            }
        }

        ClientTraffic toSummary() {
            return new ClientTraffic(platform, scope, host, bucketStart, requests, tarpitted,
                    clients.counters(), clients.floor(), requestKeys.counters(), requestKeys.floor());
        }

        static ClientAccumulator from(ClientTraffic c, int capacity) {
            ClientAccumulator a = new ClientAccumulator(c.getPlatform(), c.getScope(), c.getHost(), c.getBucketStart(),
                    Math.max(capacity, Math.max(c.getClients().size(), c.getRequestKeys().size())));
            a.requests = c.getRequests();
            a.tarpitted = c.getTarpitted();
            c.getClients().forEach(h -> a.clients.add(h.getKey(), h.getCount(), h.getError()));
            c.getRequestKeys().forEach(h -> a.requestKeys.add(h.getKey(), h.getCount(), h.getError()));
            return a;
        }
    }
}
