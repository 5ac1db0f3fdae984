package io.hcwatch.simulate;

import java.time.Duration;
import java.time.Instant;

/**
 * The knobs of a simulated run. Every scenario has its own defaults ({@link Scenario#defaults()});
 * the same scenario, parameters and seed always produce the same telemetry, byte for byte.
 *
 * @param seed                     randomness; any value
 * @param start                    event time of the first record
 * @param duration                 simulated time covered
 * @param onset                    when the incident begins, counted from {@code start}
 * @param zones                    availability zones of the ALB target groups (1 to 6)
 * @param targetsPerZone           targets of the main target group ({@code prod-web-tg}) per zone
 * @param albRequestsPerSecond     requests the ALB receives at the top of the load curve
 * @param utilization              how busy the main target group's targets are at that rate with all of them
 *                                 healthy (0.3 is relaxed; near 0.8 latency climbs steeply)
 * @param haproxyRequestsPerSecond legitimate requests per HAProxy host over its frontends, at the top of the curve
 * @param haproxyHosts             HAProxy hosts ({@code lb1}, {@code lb2}, ...) serving the same frontends
 * @param floodRequestsPerSecond   what the misbehaving client sends in {@code ping-flood}, over all hosts
 * @param noise                    rate of harmless trouble (single-target blips, slow checks) relative to normal; 0 for none
 */
public record ScenarioParams(
        long seed,
        Instant start,
        Duration duration,
        Duration onset,
        int zones,
        int targetsPerZone,
        double albRequestsPerSecond,
        double utilization,
        double haproxyRequestsPerSecond,
        int haproxyHosts,
        double floodRequestsPerSecond,
        double noise) {

    public ScenarioParams {
        if (start == null || duration == null || onset == null) {
            throw new IllegalArgumentException("start, duration and onset are required");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (onset.isNegative() || onset.compareTo(duration) > 0) {
            throw new IllegalArgumentException("onset must lie within the duration (" + duration + "), got " + onset);
        }
        if (zones < 1 || zones > 6) {
            throw new IllegalArgumentException("zones must be 1 to 6, got " + zones);
        }
        if (targetsPerZone < 1 || targetsPerZone > 200) {
            throw new IllegalArgumentException("targets per zone must be 1 to 200, got " + targetsPerZone);
        }
        if (haproxyHosts < 1 || haproxyHosts > 16) {
            throw new IllegalArgumentException("HAProxy hosts must be 1 to 16, got " + haproxyHosts);
        }
        if (!(utilization > 0 && utilization < 1.5)) {
            throw new IllegalArgumentException("utilization must be above 0 and below 1.5, got " + utilization);
        }
        if (albRequestsPerSecond < 0 || haproxyRequestsPerSecond < 0 || floodRequestsPerSecond < 0 || noise < 0) {
            throw new IllegalArgumentException("rates and noise must not be negative");
        }
    }

    /** Targets of the main target group. */
    public int targets() {
        return zones * targetsPerZone;
    }

    /** Event time of the onset. */
    public Instant onsetTime() {
        return start.plus(onset);
    }

    public Instant end() {
        return start.plus(duration);
    }

    public ScenarioParams withSeed(long v) {
        return new ScenarioParams(v, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withStart(Instant v) {
        return new ScenarioParams(seed, v, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withDuration(Duration v) {
        return new ScenarioParams(seed, start, v, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withOnset(Duration v) {
        return new ScenarioParams(seed, start, duration, v, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    /** Duration and onset together (setting them one by one can pass through an onset after the end). */
    public ScenarioParams withTiming(Duration newDuration, Duration newOnset) {
        return new ScenarioParams(seed, start, newDuration, newOnset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withZones(int v) {
        return new ScenarioParams(seed, start, duration, onset, v, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withTargetsPerZone(int v) {
        return new ScenarioParams(seed, start, duration, onset, zones, v, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withAlbRequestsPerSecond(double v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, v, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withUtilization(double v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, v,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withHaproxyRequestsPerSecond(double v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                v, haproxyHosts, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withHaproxyHosts(int v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, v, floodRequestsPerSecond, noise);
    }

    public ScenarioParams withFloodRequestsPerSecond(double v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, v, noise);
    }

    public ScenarioParams withNoise(double v) {
        return new ScenarioParams(seed, start, duration, onset, zones, targetsPerZone, albRequestsPerSecond, utilization,
                haproxyRequestsPerSecond, haproxyHosts, floodRequestsPerSecond, v);
    }

    /** One line for logs and the demo banner. */
    public String describe() {
        return "seed " + seed + ", start " + start + ", duration " + duration.toMinutes() + "m, onset +" + onset.toSeconds() + "s, "
                + targets() + " targets in " + zones + " zones, ALB " + Math.round(albRequestsPerSecond) + " req/s at "
                + Math.round(utilization * 100) + "% utilization, " + haproxyHosts + " HAProxy hosts at "
                + Math.round(haproxyRequestsPerSecond) + " req/s each"
                + (floodRequestsPerSecond > 0 ? ", flood " + Math.round(floodRequestsPerSecond) + " req/s" : "")
                + ", noise " + noise;
    }
}
