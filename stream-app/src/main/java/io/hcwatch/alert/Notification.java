package io.hcwatch.alert;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.Map;

/** Something the alert lifecycle decided to send: a firing (new, escalated, re-notified) or a resolve. */
public record Notification(
        String alertId,
        String dedupKey,
        AlertType type,
        Severity severity,
        boolean firing,
        long eventTime,
        long windowStart,
        long windowEnd,
        Scope scope,
        String summary,
        Map<String, String> details) {
}
