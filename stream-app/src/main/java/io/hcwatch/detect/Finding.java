package io.hcwatch.detect;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A detector's verdict that its condition holds now: what, how bad, the evidence, and the
 * event-time span the evidence covers. The alert lifecycle turns findings into alerts.
 *
 * @param holdForMillis how long the condition must have held without a break before it fires
 *                      (0: at once), as Prometheus' {@code for}; the lifecycle keeps that time
 */
public record Finding(
        AlertType type,
        String dedupKey,
        Severity severity,
        Scope scope,
        String summary,
        Map<String, String> details,
        long windowStart,
        long windowEnd,
        long holdForMillis) {

    public Finding {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public Finding(AlertType type, String dedupKey, Severity severity, Scope scope, String summary, Map<String, String> details,
                   long windowStart, long windowEnd) {
        this(type, dedupKey, severity, scope, summary, details, windowStart, windowEnd, 0);
    }

    /** This finding, firing only once it has held for {@code millis}. */
    public Finding holdingFor(long millis) {
        return new Finding(type, dedupKey, severity, scope, summary, details, windowStart, windowEnd, millis);
    }

    /** Builds details in insertion order, skipping nulls. */
    public static final class Details {
        private final Map<String, String> map = new LinkedHashMap<>();

        public Details put(String key, Object value) {
            if (value != null) {
                map.put(key, String.valueOf(value));
            }
            return this;
        }

        public Map<String, String> build() {
            return map;
        }
    }

    public static Details newDetails() {
        return new Details();
    }
}
