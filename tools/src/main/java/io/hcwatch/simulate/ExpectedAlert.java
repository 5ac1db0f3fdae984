package io.hcwatch.simulate;

import java.time.Duration;
import java.util.Map;

/**
 * An alert a scenario must raise: its type, how soon after the onset (event time) it must fire,
 * and what its scope and details must say. A details value written {@code >N} means "a number
 * greater than N"; anything else must match exactly.
 */
public record ExpectedAlert(String type, Duration within, Map<String, String> scope, Map<String, String> details,
                            String why) {

    public ExpectedAlert {
        scope = Map.copyOf(scope);
        details = Map.copyOf(details);
    }

    /** Whether {@code actual} (a details or scope value) satisfies {@code expected} as written here. */
    public static boolean matches(String expected, String actual) {
        if (actual == null) {
            return false;
        }
        if (expected.startsWith(">")) {
            try {
                return Double.parseDouble(actual) > Double.parseDouble(expected.substring(1));
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return expected.equals(actual);
    }
}
