package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.CheckConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The health-check settings of a target group as last seen; nulls are unknown. */
public final class CheckSettings {
    public String path;
    public Integer intervalMs;
    public Integer timeoutMs;
    public Integer healthyThreshold;
    public Integer unhealthyThreshold;

    public CheckSettings() {
    }

    public static CheckSettings of(CheckConfig c) {
        CheckSettings s = new CheckSettings();
        // interned: most target groups of a fleet check the same path
        s.path = c.getPath() == null ? null : c.getPath().intern();
        s.intervalMs = c.getIntervalMs();
        s.timeoutMs = c.getTimeoutMs();
        s.healthyThreshold = c.getHealthyThreshold();
        s.unhealthyThreshold = c.getUnhealthyThreshold();
        return s;
    }

    /** These settings with the fields {@code newer} knows replacing ours. */
    public CheckSettings overlay(CheckSettings newer) {
        CheckSettings s = copy();
        if (newer.path != null) {
            s.path = newer.path;
        }
        if (newer.intervalMs != null) {
            s.intervalMs = newer.intervalMs;
        }
        if (newer.timeoutMs != null) {
            s.timeoutMs = newer.timeoutMs;
        }
        if (newer.healthyThreshold != null) {
            s.healthyThreshold = newer.healthyThreshold;
        }
        if (newer.unhealthyThreshold != null) {
            s.unhealthyThreshold = newer.unhealthyThreshold;
        }
        return s;
    }

    public CheckSettings copy() {
        CheckSettings s = new CheckSettings();
        s.path = path;
        s.intervalMs = intervalMs;
        s.timeoutMs = timeoutMs;
        s.healthyThreshold = healthyThreshold;
        s.unhealthyThreshold = unhealthyThreshold;
        return s;
    }

    public boolean isEmpty() {
        return path == null && intervalMs == null && timeoutMs == null && healthyThreshold == null
                && unhealthyThreshold == null;
    }

    /**
     * Passes in a row that make a failing target healthy again: the healthy threshold, or 3 when
     * unknown, as the registry derives a target's state.
     */
    public int passesToRecover() {
        return healthyThreshold == null ? 3 : healthyThreshold;
    }

    /** Failures in a row that make a target unhealthy: the unhealthy threshold, or 2 when unknown. */
    public int failuresToFail() {
        return unhealthyThreshold == null ? 2 : unhealthyThreshold;
    }

    /** Human-readable "what changed", e.g. "timeout 5000ms -> 2000ms, path /health -> /deep". */
    public List<String> changesTo(CheckSettings after) {
        List<String> out = new ArrayList<>();
        diff(out, "path", path, after.path, "");
        diff(out, "timeout", timeoutMs, after.timeoutMs, "ms");
        diff(out, "interval", intervalMs, after.intervalMs, "ms");
        diff(out, "healthy_threshold", healthyThreshold, after.healthyThreshold, "");
        diff(out, "unhealthy_threshold", unhealthyThreshold, after.unhealthyThreshold, "");
        return out;
    }

    private static void diff(List<String> out, String name, Object before, Object after, String unit) {
        if (before != null && after != null && !before.equals(after)) {
            out.add(name + " " + before + unit + " -> " + after + unit);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckSettings c && Objects.equals(path, c.path) && Objects.equals(intervalMs, c.intervalMs)
                && Objects.equals(timeoutMs, c.timeoutMs) && Objects.equals(healthyThreshold, c.healthyThreshold)
                && Objects.equals(unhealthyThreshold, c.unhealthyThreshold);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold);
    }
}
