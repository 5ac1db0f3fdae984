package io.hcwatch.config;

import static io.hcwatch.config.Setting.Kind.BOOLEAN;
import static io.hcwatch.config.Setting.Kind.DOUBLE;
import static io.hcwatch.config.Setting.Kind.DURATION;
import static io.hcwatch.config.Setting.Kind.DURATIONS_BY_NAME;
import static io.hcwatch.config.Setting.Kind.FRACTION;
import static io.hcwatch.config.Setting.Kind.INT;
import static io.hcwatch.config.Setting.Kind.STRING;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every detector threshold and window, with its default. Values come from {@code --set k=v},
 * from a config file's {@code detect.*} keys, or from these defaults; an unknown key or a value
 * of the wrong kind is refused with one line saying why.
 */
public final class Settings {

    public static final List<Setting> CATALOG = List.of(
            new Setting("window.grace", DURATION, "30s",
                    "Out-of-order records up to this late (event time) count in full; later ones are counted as late."),
            new Setting("window.max-upstream-lag", DURATION, "5m",
                    "Monitors wait for input partitions behind the newest by up to this much (event time)."),
            new Setting("window.idle-timeout", DURATION, "2s",
                    "An input partition that is caught up and has had nothing to read for this long (wall time) is not waited for (live only)."),
            new Setting("window.silent-timeout", DURATION, "2m",
                    "An input partition whose ingest has not reported for this long (wall time: its task is gone, or starts that late) "
                            + "is not waited for (live only). Keep it above the consumers' session.timeout.ms (45 s) plus a restore: "
                            + "a crashed instance's partitions are moved only after that, and steps judged without them differ from replay."),
            new Setting("window.source-delay", DURATIONS_BY_NAME, "",
                    "Sources delivered in batches, with how long after its event a record may arrive (e.g. alb=10m,alb-health=10m "
                            + "for ALB logs from S3: 5-minute objects per node, delivered within about 5 minutes); monitors wait for "
                            + "them up to that long behind the other sources, and between batches (live only)."),
            new Setting("state.idle-timeout", DURATION, "6h",
                    "A target group, host or client scope that sends nothing for this long (event time) has its alerts resolved and is"
                    + " deleted from the state stores and, by tombstone, their changelogs; 0s keeps every key."),
            new Setting("limits.target-groups", INT, "100000",
                    "Target groups (and HAProxy backends) one input partition takes; records naming more go to the DLQ (reason cardinality)."),
            new Setting("limits.targets-per-group", INT, "5000",
                    "Targets per target group one input partition takes; more go to the DLQ (reason cardinality)."),
            new Setting("limits.hosts", INT, "10000",
                    "HAProxy hosts one input partition takes; more go to the DLQ (reason cardinality)."),
            new Setting("limits.frontends-per-host", INT, "1000",
                    "Frontends per HAProxy host one input partition takes; more go to the DLQ (reason cardinality)."),
            new Setting("eval.step", DURATION, "10s", "Evaluation step; an alert resolves after alert.clear-steps clear steps."),
            new Setting("alert.clear-steps", INT, "2", "Consecutive clear evaluation steps before an alert resolves."),
            new Setting("alert.renotify", DURATION, "15m", "Re-send a firing alert after this long without a change."),
            new Setting("alert.cool-down", DURATION, "5m",
                    "A condition must stay clear this long before its alert resolves; back within it, the episode goes on (a flap)."),
            new Setting("alert.cool-down-by-type", DURATIONS_BY_NAME, "",
                    "Cool-down per alert type over alert.cool-down, e.g. client_flood=1m,dns_failover=10m."),
            new Setting("alert.runbook-base", STRING,
                    "https://github.com/hcwatch/hcwatch/blob/main/runbooks/", "Base URL of runbooks/<type>.md."),
            new Setting("registry.silent-intervals", INT, "3",
                    "A target that sends nothing for this many check intervals leaves the registry."),
            new Setting("registry.default-interval", DURATION, "30s",
                    "Check interval assumed for ALB targets when neither the record nor LbConfig gives one."),
            new Setting("registry.new-target-age", DURATION, "10m",
                    "A target registered this recently and never healthy counts as a replacement, not a failure."),
            new Setting("correlated.window", DURATION, "60s", "Window in which target failures count as correlated."),
            new Setting("correlated.min-targets", INT, "3", "At least this many targets must fail."),
            new Setting("correlated.min-fraction", FRACTION, "0.30", "... and at least this share of known targets."),
            new Setting("correlated.critical-fraction", FRACTION, "0.50", "Share of failing targets that makes it critical."),
            new Setting("correlated.min-zones", INT, "2", "Zones the failures must span (unknown zones always qualify)."),
            new Setting("correlated.critical-hold", DURATION, "5m",
                    "correlated_failure stays critical while critical-fraction of the targets failed (replaced ones counted), or at most"
                            + " 1 - critical-fraction were healthy at a step, this recently."),
            new Setting("zonal.zone-fraction", FRACTION, "0.50", "Share of one zone's targets failing for zonal_failure."),
            new Setting("zonal.other-zones-max-fraction", FRACTION, "0.10",
                    "... while every other zone has less than this share failing."),
            new Setting("zonal.min-zone-targets", INT, "2", "Zones with fewer known targets are not judged."),
            new Setting("headroom.window", DURATION, "60s", "Window of check latencies for the quantiles."),
            new Setting("headroom.min-samples", INT, "20", "Fewest latency samples in the window to judge headroom."),
            new Setting("headroom.warning-ratio", FRACTION, "0.50", "p99 / timeout at which headroom warns."),
            new Setting("headroom.critical-ratio", FRACTION, "0.80", "p99 / timeout at which headroom is critical."),
            new Setting("headroom.critical-timeout-targets", INT, "2", "Targets with timeouts in the window that make it critical."),
            new Setting("headroom.trend-window", DURATION, "5m", "Span of p99 history used for the slope."),
            new Setting("headroom.recommend-floor", DURATION, "10s", "Recommended timeout is max(this, multiple x p99)."),
            new Setting("headroom.recommend-multiple", DOUBLE, "10", "Recommended timeout is max(floor, this x p99)."),
            new Setting("config-risk.lookback", DURATION, "1h", "Peak p99 is taken over this long before a change."),
            new Setting("config-risk.critical-multiple", DOUBLE, "2", "New timeout below this x peak p99 is critical."),
            new Setting("config-risk.warning-multiple", DOUBLE, "10", "New timeout below this x peak p99 warns."),
            new Setting("churn.window", DURATION, "10m", "Window for replacements that die before becoming healthy."),
            new Setting("churn.min-targets", INT, "3", "Replacements killed within the window to fire."),
            new Setting("gray.window", DURATION, "60s", "Window of access logs over which each target and zone is compared with the rest of its group."),
            new Setting("gray.min-requests", INT, "50", "Fewest requests a target or zone (and the rest of its group) must serve in the window to be judged."),
            new Setting("gray.error-ratio", DOUBLE, "5", "gray_failure when a 5xx share is at least this x the rest of the group's ..."),
            new Setting("gray.min-error-share", FRACTION, "0.05", "... and at least this share of its requests."),
            new Setting("gray.latency-ratio", DOUBLE, "3", "gray_failure when a p99 (or p50) is at least this x the rest of the group's ..."),
            new Setting("gray.min-p99", DURATION, "100ms", "... and its p99 at least this."),
            new Setting("gray.hold", DURATION, "20s", "How long gray_failure must hold before it fires."),
            new Setting("gray.warmup", DURATION, "5m", "Targets healthy for less than this are warming up: not judged by latency."),
            new Setting("gray.min-zone-targets", INT, "2", "Zones with fewer targets passing their checks are judged target by target."),
            new Setting("slots.warning-ratio", FRACTION, "0.80", "feconn/maxconn (or actconn/process maxconn) that warns."),
            new Setting("slots.critical-ratio", FRACTION, "0.95", "... that is critical."),
            new Setting("slots.sustain", DURATION, "10s", "How long the ratio must hold before warning."),
            new Setting("slots.holder-share", FRACTION, "0.50",
                    "A client holding this share of a full frontend's slot-seconds raises client_flood (reason slots)."),
            new Setting("slots.holders", INT, "5", "Clients named as holders of a frontend's connection slots."),
            new Setting("slots.inferred-min-sessions", INT, "20",
                    "Without a known maxconn, a frontend flat at its peak of at least this many sessions while requests wait is full."),
            new Setting("flood.window", DURATION, "10s", "Window for per-client request rates."),
            new Setting("flood.min-share", FRACTION, "0.20", "Share of the scope's requests one client must send."),
            new Setting("flood.min-rate", DOUBLE, "100", "Requests per second one client must send."),
            new Setting("flood.top", INT, "5", "Clients listed in the alert."),
            new Setting("flood.capacity", INT, "256", "Counters per heavy-hitter sketch (memory bound)."),
            new Setting("no-healthy.min-503", INT, "5", "ALB 503s with target '-' in a step that mean no target at all."),
            new Setting("gap.after", DURATIONS_BY_NAME, "haproxy=30s,alb=10m,alb-health=10m",
                    "telemetry_gap: silence per source (alb, alb-health, haproxy, health) after which a host's or load balancer's feed that was sending is stopped; a source not listed is not watched (health: the collectors send changes only)."),
            new Setting("gap.usual-multiple", DOUBLE, "3",
                    "telemetry_gap: a feed may also be silent this many times its longest normal silence of the last hour or two (a quiet host at night)."),
            new Setting("diagnosis.fast-failure-ratio", FRACTION, "0.50",
                    "Failing checks faster than this share of the timeout count as fast, identical failures."),
            new Setting("diagnosis.traffic-success", FRACTION, "0.90",
                    "Share of requests still succeeding that marks a check deeper than the traffic."),
            new Setting("diagnosis.near-timeout-ratio", FRACTION, "0.80",
                    "Failing-check latency at or above this share of the timeout counts as near the timeout."),
            new Setting("diagnosis.identical-share", FRACTION, "0.80",
                    "Share of failing targets with the same reason that makes failures identical."),
            new Setting("diagnosis.at-once-intervals", INT, "2",
                    "Failures that start within this many check intervals (at least 20s) start at once."),
            new Setting("diagnosis.rise-ratio", DOUBLE, "1.25",
                    "Load per healthy target or check latency this many times higher than a window earlier is rising."),
            new Setting("diagnosis.zone-concentration", FRACTION, "0.80",
                    "Share of failing targets in one zone that makes a correlated failure zonal."),
            new Setting("combine.flush-interval", DURATION, "100ms",
                    "Wall-clock interval at which per-partition traffic summaries and held health checks are sent on."),
            new Setting("combine.quiet-flush", DURATION, "10ms",
                    "Live: a partition that has read nothing for this long sends on what it holds at once, not at the next flush (0: off)."),
            new Setting("silence.enabled", BOOLEAN, "true",
                    "Advance detectors on wall-clock time when telemetry stops (live mode only)."));

    private static final Map<String, Setting> BY_KEY;

    static {
        Map<String, Setting> m = new LinkedHashMap<>();
        CATALOG.forEach(s -> m.put(s.key(), s));
        BY_KEY = Collections.unmodifiableMap(m);
    }

    private final Map<String, Object> values;

    private Settings(Map<String, Object> values) {
        this.values = values;
    }

    public static Settings defaults() {
        Map<String, Object> m = new LinkedHashMap<>();
        CATALOG.forEach(s -> m.put(s.key(), s.parse(s.defaultValue())));
        return new Settings(m);
    }

    /** These settings with {@code overrides} applied; refuses unknown keys and ill-typed values. */
    public Settings with(Map<String, String> overrides) {
        Map<String, Object> m = new LinkedHashMap<>(values);
        overrides.forEach((k, v) -> {
            Setting s = BY_KEY.get(k);
            if (s == null) {
                throw new IllegalArgumentException("unknown setting '" + k + "' (the README lists every setting)");
            }
            m.put(k, s.parse(v));
        });
        return new Settings(m);
    }

    public static boolean isKnown(String key) {
        return BY_KEY.containsKey(key);
    }

    public Duration duration(String key) {
        return (Duration) get(key);
    }

    public long millis(String key) {
        return duration(key).toMillis();
    }

    public double number(String key) {
        return ((Number) get(key)).doubleValue();
    }

    public int integer(String key) {
        return ((Number) get(key)).intValue();
    }

    public boolean flag(String key) {
        return (Boolean) get(key);
    }

    public String text(String key) {
        return (String) get(key);
    }

    /** A {@code name=duration,...} setting, in the order written. */
    @SuppressWarnings("unchecked")
    public Map<String, Duration> durationsByName(String key) {
        return (Map<String, Duration>) get(key);
    }

    private Object get(String key) {
        Object v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("unknown setting '" + key + "'");
        }
        return v;
    }
}
