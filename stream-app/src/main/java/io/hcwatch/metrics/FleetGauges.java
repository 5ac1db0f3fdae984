package io.hcwatch.metrics;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.slots.FrontendSeconds;
import io.hcwatch.detect.slots.HostState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Per target group and per HAProxy frontend gauges for Grafana. The stream thread publishes an
 * immutable snapshot at most once a second per key; scrapes read the snapshot, never the live
 * state. One series per target group or frontend, never per target or client.
 */
public final class FleetGauges {

    private static final long PUBLISH_EVERY_NANOS = 1_000_000_000L;

    private final MeterRegistry registry;
    private final Settings settings;
    private final Map<String, FleetSnapshot> fleets = new ConcurrentHashMap<>();
    private final Map<String, FrontendSnapshot> frontends = new ConcurrentHashMap<>();
    private final Map<String, Long> lastPublished = new ConcurrentHashMap<>();

    public FleetGauges(MeterRegistry registry, Settings settings) {
        this.registry = registry;
        this.settings = settings;
    }

    record FleetSnapshot(double healthy, double registered, double p50, double p95, double p99, double timeout,
                         double headroom, double failOpen) {
    }

    record FrontendSnapshot(double sessions, double maxconn, double ratio) {
    }

    public void publish(String targetGroup, FleetState s) {
        if (!due("tg\n" + targetGroup)) {
            return;
        }
        Histogram h = s.latency.window(s.clock, settings.millis("headroom.window"));
        boolean enough = h.getTotalCount() > 0;
        double p99 = enough ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN;
        double timeout = s.check.timeoutMs == null ? Double.NaN : s.check.timeoutMs / 1000.0;
        boolean failOpen = s.isAlb() && s.routingThresholds().breached(s.healthy(), s.registered());
        FleetSnapshot snap = new FleetSnapshot(s.healthy(), s.registered(),
                enough ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN,
                enough ? h.getValueAtPercentile(95) / 1000.0 : Double.NaN, p99, timeout,
                Double.isNaN(p99) || Double.isNaN(timeout) ? Double.NaN : p99 / timeout, failOpen ? 1 : 0);
        if (fleets.put(targetGroup, snap) == null) {
            fleetGauge("hcwatch.targets.healthy", targetGroup, null, FleetSnapshot::healthy, "Targets in state healthy");
            fleetGauge("hcwatch.targets.registered", targetGroup, null, FleetSnapshot::registered,
                    "Targets registered (LbConfig, else the registry)");
            fleetGauge("hcwatch.check.latency", targetGroup, "0.5", FleetSnapshot::p50, "Health-check latency quantile (seconds)");
            fleetGauge("hcwatch.check.latency", targetGroup, "0.95", FleetSnapshot::p95, "Health-check latency quantile (seconds)");
            fleetGauge("hcwatch.check.latency", targetGroup, "0.99", FleetSnapshot::p99, "Health-check latency quantile (seconds)");
            fleetGauge("hcwatch.check.timeout", targetGroup, "", FleetSnapshot::timeout, "Health-check timeout (seconds)");
            fleetGauge("hcwatch.check.headroom.ratio", targetGroup, null, FleetSnapshot::headroom, "p99 check latency / timeout");
            fleetGauge("hcwatch.fail.open", targetGroup, null, FleetSnapshot::failOpen, "1 while the ALB routes to all targets");
        }
    }

    public void publish(String host, HostState h) {
        if (!due("host\n" + host)) {
            return;
        }
        for (Map.Entry<String, FrontendSeconds> e : h.frontends.entrySet()) {
            FrontendSeconds f = e.getValue();
            int sessions = 0;
            for (int i = 0; i < f.second.length; i++) {
                if (f.within(i, h.clock, 2_000)) {
                    sessions = Math.max(sessions, f.maxFeconn[i]);
                }
            }
            Integer configured = h.frontendMaxconn.get(e.getKey());
            double maxconn = configured != null ? configured : settings.integer("slots.default-maxconn");
            String key = host + "\n" + e.getKey();
            if (frontends.put(key, new FrontendSnapshot(sessions, maxconn, sessions / maxconn)) == null) {
                frontendGauge("hcwatch.frontend.sessions", host, e.getKey(), FrontendSnapshot::sessions, "feconn, the frontend's sessions");
                frontendGauge("hcwatch.frontend.maxconn", host, e.getKey(), FrontendSnapshot::maxconn, "The frontend's maxconn");
                frontendGauge("hcwatch.frontend.sessions.ratio", host, e.getKey(), FrontendSnapshot::ratio, "feconn / maxconn");
            }
        }
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

    private void fleetGauge(String name, String tg, String quantile, ToDoubleFunction<FleetSnapshot> value, String help) {
        Gauge.Builder<Map<String, FleetSnapshot>> b = Gauge.builder(name, fleets, m -> {
                    FleetSnapshot s = m.get(tg);
                    return s == null ? Double.NaN : value.applyAsDouble(s);
                })
                .description(help)
                .tag("target_group", tg);
        if (quantile != null) {
            // "" marks a duration without quantile
            b.baseUnit("seconds");
            if (!quantile.isEmpty()) {
                b.tag("quantile", quantile);
            }
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
