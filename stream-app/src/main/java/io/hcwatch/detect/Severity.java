package io.hcwatch.detect;

/** PagerDuty's severities, most severe first. */
public enum Severity {
    CRITICAL, ERROR, WARNING, INFO;

    public boolean moreSevereThan(Severity other) {
        return ordinal() < other.ordinal();
    }
}
