package io.hcwatch.alert;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The alert lifecycle's settings, read once.
 *
 * @param renotifyMillis  re-send a firing alert after this long without a change (alert.renotify)
 * @param clearSteps      consecutive clear evaluation steps before an alert may resolve (alert.clear-steps)
 * @param runbookBase     base URL of runbooks/&lt;type&gt;.md (alert.runbook-base)
 * @param coolDownMillis  how long a condition must stay clear before its episode resolves, per type
 *                        (alert.cool-down, alert.cool-down-by-type); back within it, the same episode goes on
 */
public record LifecycleSettings(long renotifyMillis, int clearSteps, String runbookBase, Map<AlertType, Long> coolDownMillis) {

    public LifecycleSettings(long renotifyMillis, int clearSteps, String runbookBase) {
        this(renotifyMillis, clearSteps, runbookBase, new EnumMap<>(AlertType.class));
    }

    public static LifecycleSettings from(Settings s) {
        Map<AlertType, Long> coolDown = new EnumMap<>(AlertType.class);
        long base = s.millis("alert.cool-down");
        for (AlertType t : AlertType.values()) {
            coolDown.put(t, base);
        }
        coolDown.putAll(byType(s.durationsByName("alert.cool-down-by-type")));
        return new LifecycleSettings(s.millis("alert.renotify"), s.integer("alert.clear-steps"), s.text("alert.runbook-base"),
                coolDown);
    }

    public long coolDown(AlertType type) {
        return coolDownMillis.getOrDefault(type, 0L);
    }

    /**
     * Cool-downs by alert type id.
     *
     * @throws IllegalArgumentException naming an id that is not an alert type
     */
    static Map<AlertType, Long> byType(Map<String, Duration> byId) {
        Map<AlertType, Long> out = new EnumMap<>(AlertType.class);
        byId.forEach((id, d) -> {
            AlertType type;
            try {
                type = AlertType.fromId(id);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("alert.cool-down-by-type: '" + id + "' is not an alert type");
            }
            out.put(type, d.toMillis());
        });
        return out;
    }
}
