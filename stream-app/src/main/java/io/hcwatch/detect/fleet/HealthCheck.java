package io.hcwatch.detect.fleet;

/** A target group's health-check settings as last seen, and their latest change. */
public final class HealthCheck {
    public CheckSettings settings = new CheckSettings();
    public CheckChange lastChange;

    public HealthCheck() {
    }

    /**
     * Takes in settings from a record; returns the settings as they were before when this made a
     * real change to known settings (a first sighting, or more fields of the same, is no change).
     */
    CheckSettings update(CheckSettings incoming) {
        if (incoming.isEmpty()) {
            return null;
        }
        CheckSettings merged = settings.overlay(incoming);
        if (merged.equals(settings)) {
            return null;
        }
        CheckSettings before = settings;
        settings = merged;
        return !before.isEmpty() && !before.changesTo(merged).isEmpty() ? before : null;
    }

    /** The latest change, when it cut the timeout within {@code lookbackMillis} before {@code now}. */
    public boolean timeoutCutWithin(long now, long lookbackMillis) {
        return lastChange != null && lastChange.before.timeoutMs != null && settings.timeoutMs != null
                && settings.timeoutMs < lastChange.before.timeoutMs && now - lastChange.at <= lookbackMillis;
    }
}
