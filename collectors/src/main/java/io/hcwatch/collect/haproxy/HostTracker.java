package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.BackendStats;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one host's successive polls mean: the limits and server states that changed since they were
 * last published, and one stats record with counter deltas. Counters restart when HAProxy reloads
 * (pid changed, or Uptime_sec went back) or when someone clears them; then that interval has no
 * deltas at all rather than wrong (negative or partial) ones. Polls of one host are serial; the
 * published-state maps are concurrent because a failed delivery clears an entry from a producer
 * thread.
 */
final class HostTracker {

    /** What the tracker noticed besides the records, for metrics. */
    record Result(List<Outgoing> records, boolean reloaded, List<String> counterResets) {
    }

    private static final long ABSENT = -1;

    private final String host;
    private Integer lastPid;
    private long lastUptime;
    private long lastPollMs;
    private final Map<String, long[]> frontendCounters = new HashMap<>();
    private final Map<String, long[]> backendCounters = new HashMap<>();
    private final Map<String, FrontendView> publishedFrontends = new ConcurrentHashMap<>();
    private final Map<String, Integer> publishedMaxconn = new ConcurrentHashMap<>();
    private final CheckTracker checks;
    private Set<String> lastFrontends = Set.of();

    /** What a frontend's lb-config says: its session limit and the format its traffic lines are logged with. */
    private record FrontendView(Integer maxconn, String logFormat) {
    }

    HostTracker(String host) {
        this.host = host;
        this.checks = new CheckTracker(host);
    }

    Result track(Snapshot s, long pollMs) {
        return track(s, pollMs, null, HolderReading.Holders.NONE);
    }

    /** Whether this poll meets a HAProxy process other than the last one's (or is the first). */
    boolean restarted(Snapshot s) {
        return lastPid == null || s.process().pid() != lastPid || s.process().uptimeSec() < lastUptime;
    }

    /** @param cfg the host's haproxy.cfg as last read, or null when the collector is not given it */
    Result track(Snapshot s, long pollMs, HaproxyCfg.Settings cfg) {
        return track(s, pollMs, cfg, HolderReading.Holders.NONE);
    }

    /** @param holders the clients holding the sessions of frontends near their limit, read at this poll */
    Result track(Snapshot s, long pollMs, HaproxyCfg.Settings cfg, HolderReading.Holders holders) {
        ProcessInfo p = s.process();
        boolean first = lastPid == null;
        boolean reloaded = !first && restarted(s);
        if (reloaded) {
            frontendCounters.clear();
            backendCounters.clear();
        }
        Long intervalMs = first || reloaded ? null : pollMs - lastPollMs;
        Instant ts = Instant.ofEpochMilli(pollMs);
        List<Outgoing> out = new ArrayList<>();
        limits(s, ts, cfg == null ? Map.of() : cfg.logFormats(), out);
        checks.track(s, pollMs, first ? pollMs : lastPollMs, first || reloaded, cfg, out);
        List<String> resets = new ArrayList<>();
        HaproxyStats stats = stats(s, ts, reloaded, intervalMs, resets, holders);
        out.add(new Outgoing(Outgoing.Topic.STATS, host, stats, pollMs, () -> { }));
        lastPid = p.pid();
        lastUptime = p.uptimeSec();
        lastPollMs = pollMs;
        return new Result(out, reloaded, resets);
    }

    /**
     * lb-config for the process maxconn and each frontend's session limit and log format, at start and
     * on change.
     */
    private void limits(Snapshot s, Instant ts, Map<String, String> logFormats, List<Outgoing> out) {
        int maxconn = s.process().maxconn();
        if (!Objects.equals(publishedMaxconn.put(host, maxconn), maxconn)) {
            LbConfig c = LbConfig.newBuilder().setKind(ConfigKind.haproxy_process).setId(host).setTs(ts)
                    .setHost(host).setMaxconn(maxconn).build();
            out.add(new Outgoing(Outgoing.Topic.CONFIG, host, c, ts.toEpochMilli(), () -> publishedMaxconn.remove(host, maxconn)));
        }
        Set<String> seen = new LinkedHashSet<>();
        for (Snapshot.Frontend f : s.frontends()) {
            seen.add(f.name());
            FrontendView view = new FrontendView(f.slim(), logFormats.get(f.name()));
            if (view.equals(new FrontendView(null, null)) || view.equals(publishedFrontends.put(f.name(), view))) {
                continue;
            }
            out.add(new Outgoing(Outgoing.Topic.CONFIG, host + "/" + f.name(), frontendConfig(f.name(), view, ts),
                    ts.toEpochMilli(), () -> publishedFrontends.remove(f.name(), view)));
        }
        for (String gone : lastFrontends) {
            if (!seen.contains(gone)) {
                // a frontend a reload removed: a null limit makes the host monitor forget it
                publishedFrontends.remove(gone);
                out.add(new Outgoing(Outgoing.Topic.CONFIG, host + "/" + gone, frontendConfig(gone, new FrontendView(null, null), ts),
                        ts.toEpochMilli(), () -> { }));
            }
        }
        lastFrontends = seen;
    }

    private LbConfig frontendConfig(String frontend, FrontendView view, Instant ts) {
        return LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId(host + "/" + frontend).setTs(ts)
                .setHost(host).setFrontend(frontend).setMaxconn(view.maxconn()).setLogFormat(view.logFormat()).build();
    }

    /** ip and port of "10.0.0.5:8080" or "[2001:db8::5]:8080"; null for other forms (unix sockets, names). */
    static String[] address(String addr) {
        if (addr == null) {
            return null;
        }
        int colon = addr.lastIndexOf(':');
        if (colon <= 0 || colon == addr.length() - 1) {
            return null;
        }
        String ip = addr.substring(0, colon);
        String port = addr.substring(colon + 1);
        if (ip.startsWith("[") && ip.endsWith("]")) {
            ip = ip.substring(1, ip.length() - 1);
        }
        if (!port.chars().allMatch(Character::isDigit) || port.length() > 5 || Integer.parseInt(port) > 65_535) {
            return null;
        }
        return new String[] {ip, port};
    }

    private HaproxyStats stats(Snapshot s, Instant ts, boolean reloaded, Long intervalMs, List<String> resets,
                               HolderReading.Holders holders) {
        ProcessInfo p = s.process();
        List<FrontendStats> frontends = new ArrayList<>(s.frontends().size());
        for (Snapshot.Frontend f : s.frontends()) {
            long[] now = {f.stot(), f.ereq(), f.dreq(), f.dcon() == null ? ABSENT : f.dcon()};
            Long[] d = deltas(frontendCounters.put(f.name(), now), now, intervalMs, f.name(), resets);
            frontends.add(new FrontendStats(f.name(), f.status(), f.scur(), f.slim(), f.smax(), f.qcur(), f.rate(),
                    f.reqRate(), f.connRate(), d[0], d[1], d[2], d[3], holders.top(f.name()), holders.listed(f.name())));
        }
        List<BackendStats> backends = new ArrayList<>(s.backends().size());
        for (Snapshot.Backend b : s.backends()) {
            long[] now = {b.stot(), b.econ() == null ? ABSENT : b.econ(), b.eresp() == null ? ABSENT : b.eresp()};
            Long[] d = deltas(backendCounters.put(b.name(), now), now, intervalMs, b.name(), resets);
            backends.add(new BackendStats(b.name(), b.status(), b.scur(), b.qcur(), b.act(), b.bck(), d[0], d[1], d[2]));
        }
        return new HaproxyStats(ts, host, p.pid(), p.uptimeSec(), reloaded, intervalMs, p.currConns(), p.maxconn(),
                p.connRate(), p.sessRate(), p.runQueue(), p.idlePct(), frontends, backends);
    }

    /**
     * Each counter's growth since the previous poll; all null when there is no previous value in this
     * process, or when any counter went back (cleared), since then none of them covers the interval.
     */
    private static Long[] deltas(long[] before, long[] now, Long intervalMs, String proxy, List<String> resets) {
        Long[] d = new Long[now.length];
        if (before == null || intervalMs == null) {
            return d;
        }
        for (int i = 0; i < now.length; i++) {
            if (now[i] != ABSENT && before[i] != ABSENT && now[i] < before[i]) {
                resets.add(proxy);
                return new Long[now.length];
            }
        }
        for (int i = 0; i < now.length; i++) {
            d[i] = now[i] == ABSENT || before[i] == ABSENT ? null : now[i] - before[i];
        }
        return d;
    }
}
