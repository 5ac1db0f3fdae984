package io.hcwatch.alert;

import io.hcwatch.config.Settings;

/**
 * The alert lifecycle's settings, read once.
 *
 * @param renotifyMillis re-send a firing alert after this long without a change (alert.renotify)
 * @param clearSteps     consecutive clear evaluation steps before an alert resolves (alert.clear-steps)
 * @param runbookBase    base URL of runbooks/&lt;type&gt;.md (alert.runbook-base)
 */
public record LifecycleSettings(long renotifyMillis, int clearSteps, String runbookBase) {

    public static LifecycleSettings from(Settings s) {
        return new LifecycleSettings(s.millis("alert.renotify"), s.integer("alert.clear-steps"), s.text("alert.runbook-base"));
    }
}
