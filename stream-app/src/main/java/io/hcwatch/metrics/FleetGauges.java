package io.hcwatch.metrics;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.slots.FrontendSeconds;
import io.hcwatch.detect.slots.HostState;
import io.hcwatch.observability.LogText;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per target group and per HAProxy frontend gauges for Grafana. The stream thread publishes an
 * immutable snapshot at most once a second per key; scrapes read the snapshot, never the live
 * state. One series per target group or frontend, never per target or client.
 */
public final class FleetGauges {

    public static final String TARGETS_HEALTHY = "hcwatch.targets.healthy";
    public static final String TARGETS_REGISTERED = "hcwatch.targets.registered";
    public static final String CHECK_LATENCY = "hcwatch.check.latency";
    public static final String CHECK_TIMEOUT = "hcwatch.check.timeout";
    public static final String HEADROOM = "hcwatch.check.headroom.ratio";
    public static final String FAIL_OPEN = "hcwatch.fail.open";
    public static final String FRONTEND_SESSIONS = "hcwatch.frontend.sessions";
    public static final String FRONTEND_MAXCONN = "hcwatch.frontend.maxconn";
    public static final String FRONTEND_RATIO = "hcwatch.frontend.sessions.ratio";
    public static final String SERIES_DROPPED = "hcwatch.metrics.series.dropped";
    /** Far above any real fleet; a guard against telemetry that invents target-group names. */
    public static final int DEFAULT_MAX_SERIES_KEYS = 2_000;
    private static final String LATENCY_HELP =
            "Health-check latency percentile over the headroom window (headroom.window, default 60s of event time)";
    private static final Logger LOG = LoggerFactory.getLogger(FleetGauges.class);
    private static final long PUBLISH_EVERY_NANOS = 1_000_000_000L;

    private final MeterRegistry registry;
    private final long latencyWindowMillis;
    private final Map<String, FleetSnapshot> fleets = new ConcurrentHashMap<>();
    private final Map<String, FrontendSnapshot> frontends = new ConcurrentHashMap<>();
    private final Map<String, Long> lastPublished = new ConcurrentHashMap<>();
    private final int maxSeriesKeys;
    private final Counter dropped;
    private volatile boolean overflowLogged;

    /** @param latencyWindowMillis the window of the latency gauges (headroom.window) */
    public FleetGauges(MeterRegistry registry, long latencyWindowMillis) {
        this(registry, latencyWindowMillis, DEFAULT_MAX_SERIES_KEYS);
    }

    /** @param maxSeriesKeys most target groups (and, separately, frontends) given gauges; later ones are only counted */
    public FleetGauges(MeterRegistry registry, long latencyWindowMillis, int maxSeriesKeys) {
        this.registry = registry;
        this.latencyWindowMillis = latencyWindowMillis;
        this.maxSeriesKeys = maxSeriesKeys;
        this.dropped = Counter.builder(SERIES_DROPPED)
                .description("Gauge updates not exported because the target-group or frontend limit was reached")
                .register(registry);
    }

    record FleetSnapshot(double healthy, double registered, double p50, double p95, double p99, double timeout,
                         double headroom, double failOpen) {
    }

    record FrontendSnapshot(double sessions, double maxconn, double ratio) {
    }

    /**
     * @param now      the target group's event time
     * @param findings what its detectors found at their latest judgement: the fail-open gauge is the
     *                 detector's own verdict (pool or per zone, only once targets are known), so gauge and alert agree
     */
    public void publish(String targetGroup, FleetState s, long now, List<Finding> findings) {
        if (fleets.size() >= maxSeriesKeys && !fleets.containsKey(targetGroup)) {
            // no gauges for it: nothing to throttle, so nothing is kept per target group past the limit
            overflow("target group", targetGroup);
            return;
        }
        if (!due("tg\n" + targetGroup)) {
            return;
        }
        Histogram h = s.latency.all.window(now, latencyWindowMillis);
        boolean enough = h.getTotalCount() > 0;
        double p99 = enough ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN;
        double timeout = s.settings().timeoutMs == null ? Double.NaN : s.settings().timeoutMs / 1000.0;
        boolean failOpen = findings.stream().anyMatch(f -> f.type() == AlertType.FAIL_OPEN_ROUTING);
        FleetSnapshot snap = new FleetSnapshot(s.healthy(), s.registered(),
                enough ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN,
                enough ? h.getValueAtPercentile(95) / 1000.0 : Double.NaN, p99, timeout,
                Double.isNaN(p99) || Double.isNaN(timeout) ? Double.NaN : p99 / timeout, failOpen ? 1 : 0);
        if (fleets.put(targetGroup, snap) == null) {
            if (fleets.size() > maxSeriesKeys) {
                fleets.remove(targetGroup);
                overflow("target group", targetGroup);
                return;
            }
            fleetGauge(TARGETS_HEALTHY, targetGroup, null, null, FleetSnapshot::healthy,
                    "Targets whose last known state is healthy, per target group (or HAProxy backend)");
            fleetGauge(TARGETS_REGISTERED, targetGroup, null, null, FleetSnapshot::registered,
                    "Targets registered: LbConfig's registered_targets, else the targets seen reporting");
            fleetGauge(CHECK_LATENCY, targetGroup, "p50", "seconds", FleetSnapshot::p50, LATENCY_HELP);
            fleetGauge(CHECK_LATENCY, targetGroup, "p95", "seconds", FleetSnapshot::p95, LATENCY_HELP);
            fleetGauge(CHECK_LATENCY, targetGroup, "p99", "seconds", FleetSnapshot::p99, LATENCY_HELP);
            fleetGauge(CHECK_TIMEOUT, targetGroup, null, "seconds", FleetSnapshot::timeout,
                    "The health check's configured timeout (NaN while unknown)");
            fleetGauge(HEADROOM, targetGroup, null, null, FleetSnapshot::headroom,
                    "p99 health-check latency divided by the timeout; 1 means checks are timing out");
            fleetGauge(FAIL_OPEN, targetGroup, null, null, FleetSnapshot::failOpen,
                    "1 while healthy targets are below the unhealthy-state-routing threshold, so the ALB routes to all targets");
        }
    }

    public void publish(String host, HostState h, long now) {
        if (!due("host\n" + host)) {
            return;
        }
        for (Map.Entry<String, FrontendSeconds> e : h.frontends.entrySet()) {
            FrontendSeconds f = e.getValue();
            int sessions = 0;
            for (int i = 0; i < f.second.length; i++) {
                if (f.within(i, now, 2_000)) {
                    sessions = Math.max(sessions, f.maxFeconn[i]);
                }
            }
            Integer configured = h.frontendMaxconn.get(e.getKey());
            double maxconn = configured != null ? configured : Double.NaN;
            String key = host + "\n" + e.getKey();
            if (frontends.put(key, new FrontendSnapshot(sessions, maxconn, sessions / maxconn)) == null) {
                if (frontends.size() > maxSeriesKeys) {
                    frontends.remove(key);
                    overflow("frontend", host + "/" + e.getKey());
                    continue;
                }
                frontendGauge(FRONTEND_SESSIONS, host, e.getKey(), FrontendSnapshot::sessions,
                        "Highest feconn (the frontend's concurrent sessions) logged in the last 2 seconds of event time");
                frontendGauge(FRONTEND_MAXCONN, host, e.getKey(), FrontendSnapshot::maxconn,
                        "The frontend's maxconn (LbConfig or the HAProxy collector; NaN while unknown)");
                frontendGauge(FRONTEND_RATIO, host, e.getKey(), FrontendSnapshot::ratio,
                        "Frontend sessions divided by maxconn; 1 means new connections queue or are refused");
            }
        }
    }

    /** A deleted target group: its gauges go, and its place under the series limit is free again. */
    public void forgetTargetGroup(String targetGroup) {
        lastPublished.remove("tg\n" + targetGroup);
        if (fleets.remove(targetGroup) != null) {
            removeMeters("target_group", targetGroup);
        }
    }

    /** A deleted HAProxy host: the gauges of its frontends go. */
    public void forgetHost(String host) {
        lastPublished.remove("host\n" + host);
        if (frontends.keySet().removeIf(k -> k.startsWith(host + "\n"))) {
            removeMeters("host", host);
        }
    }

    private void removeMeters(String tag, String value) {
        for (io.micrometer.core.instrument.Meter m : registry.getMeters()) {
            if (value.equals(m.getId().getTag(tag))) {
                registry.remove(m);
            }
        }
    }

    private void overflow(String what, String name) {
        if (!overflowLogged) {
            overflowLogged = true;
            LOG.warn("more than {} {}s: {} and later ones get no gauges (a fixed limit; hcwatch_metrics_series_dropped_total counts them)", maxSeriesKeys, what, LogText.of(name));
        }
        dropped.increment();
    }

    private boolean due(String key) {
        long now = System.nanoTime();
        Long last = lastPublished.get(key);
        if (last != null && now - last < PUBLISH_EVERY_NANOS) {
            return false;
        }
        lastPublished.put(key, now);
        return true;
    }

    private void fleetGauge(String name, String tg, String percentile, String unit, ToDoubleFunction<FleetSnapshot> value,
                            String help) {
        Gauge.Builder<Map<String, FleetSnapshot>> b = Gauge.builder(name, fleets, m -> {
                    FleetSnapshot s = m.get(tg);
                    return s == null ? Double.NaN : value.applyAsDouble(s);
                })
                .description(help)
                .baseUnit(unit)
                .tag("target_group", tg);
        if (percentile != null) {
            // not "quantile": Prometheus reserves that label for summaries, and this is a gauge
            b.tag("percentile", percentile);
        }
        b.register(registry);
    }

    private void frontendGauge(String name, String host, String frontend, ToDoubleFunction<FrontendSnapshot> value, String help) {
        String key = host + "\n" + frontend;
        Gauge.builder(name, frontends, m -> {
                    FrontendSnapshot s = m.get(key);
                    return s == null ? Double.NaN : value.applyAsDouble(s);
                })
                .description(help)
                .tag("host", host)
                .tag("frontend", frontend)
                .register(registry);
    }
}
