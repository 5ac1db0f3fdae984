package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.haproxy.cfg.HaproxyCfg;
import io.hcwatch.collect.haproxy.cfg.ServerCheckConfig;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One host's servers as HealthCheckResults: one whenever a check completed since the previous poll
 * (so the stream app sees check latency as it moves, not only at a change of state), and one
 * whenever a server's status or check status changed. A server whose checks have not passed since
 * HAProxy (re)started is starting: state {@code initial}, registered when the process started, as a
 * registering ALB target is, since HAProxy calls every server UP at start before any check ran.
 */
final class CheckTracker {

    /** A HAProxy first seen younger than this is watched from its start; an older one may have seen passes we did not. */
    static final long WATCHED_FROM_START_SEC = 60;

    private final String host;
    private final Map<String, String> publishedViews = new ConcurrentHashMap<>();
    private final Map<String, Long> publishedAt = new HashMap<>();
    private final Map<String, ServerProgress> progress = new HashMap<>();
    private final Set<String> passedSinceStart = new HashSet<>();
    private Map<String, Snapshot.Server> lastServers = Map.of();
    private boolean watchedFromStart;
    private long processStartMs;

    CheckTracker(String host) {
        this.host = host;
    }

    /**
     * @param restarted whether this poll met a new HAProxy process (or is the first poll)
     * @param cfg the host's haproxy.cfg as last read, or null
     */
    void track(Snapshot s, long pollMs, long previousPollMs, boolean restarted, HaproxyCfg.Settings cfg, List<Outgoing> out) {
        long uptimeSec = s.process().uptimeSec();
        if (restarted) {
            boolean first = lastServers.isEmpty() && publishedAt.isEmpty();
            watchedFromStart = !first || uptimeSec < WATCHED_FROM_START_SEC;
            processStartMs = pollMs - uptimeSec * 1000;
            passedSinceStart.clear();
        }
        Map<String, Integer> activeLeft = new HashMap<>();
        for (Snapshot.Backend b : s.backends()) {
            if (b.act() != null) {
                activeLeft.put(b.name(), b.act());
            }
        }
        Map<String, CheckConfig> configs = new HashMap<>();
        Map<String, Snapshot.Server> now = new HashMap<>();
        for (Snapshot.Server sv : s.servers()) {
            TargetState state = ServerChecks.state(sv.status());
            if (!ServerChecks.isChecked(sv.status()) || state == null) {
                continue;
            }
            String id = sv.backend() + "/" + sv.name();
            now.put(id, sv);
            if (ServerChecks.outcome(sv.checkStatus()) == CheckOutcome.pass
                    && (state == TargetState.healthy || state == TargetState.draining)) {
                passedSinceStart.add(id);
            }
            boolean starting = watchedFromStart && !passedSinceStart.contains(id) && state != TargetState.unused;
            ServerCheckConfig configured = configured(cfg, sv);
            ServerProgress current = ServerProgress.of(sv);
            ServerProgress before = progress.put(id, current);
            String view = sv.status() + "|" + sv.checkStatus() + "|" + starting;
            boolean changed = !view.equals(publishedViews.put(id, view));
            long sincePublished = pollMs - publishedAt.getOrDefault(id, Long.MIN_VALUE / 2);
            boolean checked = state != TargetState.unused && before != null
                    && current.completedAfter(before, sincePublished, sv.status(), configured);
            if (!changed && !checked) {
                continue;
            }
            Snapshot.Server previous = lastServers.get(id);
            long ts = pollMs;
            if (previous != null && ServerChecks.state(previous.status()) != state && sv.lastChangeSec() != null) {
                ts = Math.max(pollMs - sv.lastChangeSec() * 1000, previousPollMs);
            }
            CheckConfig check = configs.computeIfAbsent(sv.backend(), b -> backendConfig(cfg, b));
            HealthCheckResult r = result(sv, check != null ? check : CheckConfigs.fromStats(sv), activeLeft.get(sv.backend()),
                    ts, starting);
            publishedAt.put(id, pollMs);
            out.add(new Outgoing(Outgoing.Topic.HEALTH, sv.name(), r, ts, () -> publishedViews.remove(id, view)));
        }
        for (Map.Entry<String, Snapshot.Server> gone : lastServers.entrySet()) {
            if (!now.containsKey(gone.getKey())) {
                // no longer in HAProxy's configuration (a reload removed it): out of service, as MAINT is
                publishedViews.remove(gone.getKey());
                publishedAt.remove(gone.getKey());
                progress.remove(gone.getKey());
                Snapshot.Server sv = gone.getValue();
                HealthCheckResult r = HealthCheckResult.newBuilder(result(sv, null, activeLeft.get(sv.backend()), pollMs, false))
                        .setState(TargetState.unused).setOutcome(CheckOutcome.other)
                        .setReason("server removed from the configuration").setLatencyMs(null).setStatusCode(null).build();
                out.add(new Outgoing(Outgoing.Topic.HEALTH, sv.name(), r, pollMs, () -> { }));
            }
        }
        lastServers = now;
    }

    private static ServerCheckConfig configured(HaproxyCfg.Settings cfg, Snapshot.Server sv) {
        if (cfg == null) {
            return null;
        }
        Map<String, ServerCheckConfig> servers = cfg.servers().get(sv.backend());
        return servers == null ? null : servers.get(sv.name());
    }

    private static CheckConfig backendConfig(HaproxyCfg.Settings cfg, String backend) {
        Map<String, ServerCheckConfig> servers = cfg == null ? null : cfg.servers().get(backend);
        return servers == null ? null : CheckConfigs.backend(servers.values());
    }

    /** Named as the stream app names HAProxy's check log lines: lb = host, target group = backend, target = server. */
    private HealthCheckResult result(Snapshot.Server sv, CheckConfig check, Integer activeLeft, long ts, boolean starting) {
        TargetState state = starting ? TargetState.initial : ServerChecks.state(sv.status());
        boolean maintenance = state == TargetState.unused;
        String[] address = HostTracker.address(sv.address());
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts))
                .setSource("haproxy")
                .setLb(host)
                .setTargetGroup(sv.backend())
                .setTarget(sv.name())
                .setTargetIp(address == null ? null : address[0])
                .setPort(address == null ? null : Integer.valueOf(address[1]))
                .setOutcome(maintenance ? CheckOutcome.other : ServerChecks.outcome(sv.checkStatus()))
                .setLatencyMs(maintenance ? null : sv.checkDurationMs())
                .setStatusCode(maintenance ? null : sv.checkCode())
                .setState(state)
                .setReason(maintenance ? null : ServerChecks.reason(sv.checkStatus(), sv.checkDescription()))
                .setCheck(check)
                .setRegisteredAt(starting ? Instant.ofEpochMilli(processStartMs) : null)
                .setActiveServersLeft(activeLeft)
                .build();
    }
}
