package io.hcwatch.detect.fleet;

import io.hcwatch.config.Settings;

/**
 * Every setting the target-group detectors read, typed and read once (a misspelt key fails at
 * start, not at the first incident). Durations in milliseconds. The README's settings table
 * documents each one under its key.
 */
public record FleetSettings(
        long stepMillis,
        Registry registry,
        Correlated correlated,
        Zonal zonal,
        Headroom headroom,
        ConfigRisk configRisk,
        Churn churn,
        int noHealthyMin503,
        Diagnosis diagnosis,
        Gray gray) {

    /** registry.*: who counts as a member of the target group. */
    public record Registry(int silentIntervals, long defaultIntervalMillis, long newTargetAgeMillis) {
    }

    /** correlated.* */
    public record Correlated(long windowMillis, int minTargets, double minFraction, double criticalFraction, int minZones,
                             long criticalHoldMillis) {
    }

    /** zonal.* */
    public record Zonal(double zoneFraction, double otherZonesMaxFraction, int minZoneTargets) {
    }

    /** headroom.* */
    public record Headroom(long windowMillis, int minSamples, double warningRatio, double criticalRatio,
                           int criticalTimeoutTargets, long trendWindowMillis, long recommendFloorMillis,
                           double recommendMultiple) {

        /** max(floor, multiple × p99), rounded up to whole seconds as ALB takes them. */
        public long recommendedTimeout(double p99) {
            double raw = Math.max(recommendFloorMillis, recommendMultiple * p99);
            return (long) Math.ceil(raw / 1000.0) * 1000;
        }
    }

    /** config-risk.* */
    public record ConfigRisk(long lookbackMillis, double criticalMultiple, double warningMultiple) {
    }

    /** churn.* */
    public record Churn(long windowMillis, int minTargets) {
    }

    /** diagnosis.* */
    public record Diagnosis(double fastFailureRatio, double trafficSuccess, double nearTimeoutRatio, double identicalShare,
                            int atOnceIntervals, double riseRatio, double zoneConcentration) {
    }

    /** gray.*: a target or zone answering far worse than the rest of its group while its checks pass. */
    public record Gray(long windowMillis, int minRequests, double errorRatio, double minErrorShare, double latencyRatio,
                       long minP99Millis, long holdMillis, long warmupMillis, int minZoneTargets) {
    }

    public static FleetSettings from(Settings s) {
        return new FleetSettings(
                s.millis("eval.step"),
                new Registry(s.integer("registry.silent-intervals"), s.millis("registry.default-interval"),
                        s.millis("registry.new-target-age")),
                new Correlated(s.millis("correlated.window"), s.integer("correlated.min-targets"),
                        s.number("correlated.min-fraction"), s.number("correlated.critical-fraction"),
                        s.integer("correlated.min-zones"), s.millis("correlated.critical-hold")),
                new Zonal(s.number("zonal.zone-fraction"), s.number("zonal.other-zones-max-fraction"),
                        s.integer("zonal.min-zone-targets")),
                new Headroom(s.millis("headroom.window"), s.integer("headroom.min-samples"), s.number("headroom.warning-ratio"),
                        s.number("headroom.critical-ratio"), s.integer("headroom.critical-timeout-targets"),
                        s.millis("headroom.trend-window"), s.millis("headroom.recommend-floor"),
                        s.number("headroom.recommend-multiple")),
                new ConfigRisk(s.millis("config-risk.lookback"), s.number("config-risk.critical-multiple"),
                        s.number("config-risk.warning-multiple")),
                new Churn(s.millis("churn.window"), s.integer("churn.min-targets")),
                s.integer("no-healthy.min-503"),
                new Diagnosis(s.number("diagnosis.fast-failure-ratio"), s.number("diagnosis.traffic-success"),
                        s.number("diagnosis.near-timeout-ratio"), s.number("diagnosis.identical-share"),
                        s.integer("diagnosis.at-once-intervals"), s.number("diagnosis.rise-ratio"),
                        s.number("diagnosis.zone-concentration")),
                new Gray(s.millis("gray.window"), s.integer("gray.min-requests"), s.number("gray.error-ratio"),
                        s.number("gray.min-error-share"), s.number("gray.latency-ratio"), s.millis("gray.min-p99"),
                        s.millis("gray.hold"), s.millis("gray.warmup"), s.integer("gray.min-zone-targets")));
    }

    public static FleetSettings defaults() {
        return from(Settings.defaults());
    }

    /** The check interval when neither the records nor LbConfig give one. */
    public long interval(CheckSettings check) {
        return check.intervalMs != null ? check.intervalMs : registry.defaultIntervalMillis();
    }
}
