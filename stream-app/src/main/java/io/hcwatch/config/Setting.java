package io.hcwatch.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One tunable: its key (as given to {@code --set key=value} or in a config file), default and
 * meaning. The README's configuration table is generated from these.
 */
public record Setting(String key, Kind kind, String defaultValue, String meaning) {

    /** How a value is written and checked. */
    public enum Kind { DURATION, FRACTION, INT, DOUBLE, BOOLEAN, STRING, DURATIONS_BY_NAME }

    /** Parses {@code raw}; throws IllegalArgumentException with a one-line reason when it does not fit. */
    public Object parse(String raw) {
        String v = raw.trim();
        try {
            return switch (kind) {
                case DURATION -> parseDuration(v);
                case FRACTION -> {
                    double d = Double.parseDouble(v);
                    if (d < 0 || d > 1) {
                        throw new IllegalArgumentException(key + " must be a fraction between 0 and 1, got " + raw);
                    }
                    yield d;
                }
                case INT -> {
                    int i = Integer.parseInt(v);
                    if (i < 0) {
                        throw new IllegalArgumentException(key + " must not be negative, got " + raw);
                    }
                    yield i;
                }
                case DOUBLE -> {
                    double d = Double.parseDouble(v);
                    if (d < 0 || Double.isNaN(d)) {
                        throw new IllegalArgumentException(key + " must be a non-negative number, got " + raw);
                    }
                    yield d;
                }
                case BOOLEAN -> {
                    String b = v.toLowerCase(Locale.ROOT);
                    if (!b.equals("true") && !b.equals("false")) {
                        throw new IllegalArgumentException(key + " must be true or false, got " + raw);
                    }
                    yield Boolean.parseBoolean(b);
                }
                case STRING -> v;
                case DURATIONS_BY_NAME -> durationsByName(v);
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " expects " + describeKind() + ", got " + raw);
        }
    }

    private String describeKind() {
        return switch (kind) {
            case DURATION -> "a duration like 500ms, 30s, 10m or 1h";
            case FRACTION -> "a fraction between 0 and 1";
            case INT -> "a whole number";
            case DOUBLE -> "a number";
            case BOOLEAN -> "true or false";
            case STRING -> "text";
            case DURATIONS_BY_NAME -> "name=duration pairs separated by commas, e.g. client_flood=1m,dns_failover=10m";
        };
    }

    /** {@code name=duration,...} (empty: none), in order; which names are allowed is the reader's business. */
    private Map<String, Duration> durationsByName(String v) {
        Map<String, Duration> out = new LinkedHashMap<>();
        if (v.isEmpty()) {
            return out;
        }
        for (String part : v.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length < 2 || kv[0].isBlank()) {
                throw new NumberFormatException(part);
            }
            out.put(kv[0].trim(), parseDuration(kv[1]));
        }
        return out;
    }

    /** Accepts 250ms, 30s, 10m, 1h, 1d, or ISO-8601 (PT30S). */
    public static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.startsWith("pt") || s.startsWith("p")) {
            return Duration.parse(s.toUpperCase(Locale.ROOT));
        }
        int split = 0;
        while (split < s.length() && (Character.isDigit(s.charAt(split)) || s.charAt(split) == '.')) {
            split++;
        }
        if (split == 0 || split == s.length()) {
            throw new NumberFormatException(v);
        }
        double amount = Double.parseDouble(s.substring(0, split));
        long millis = switch (s.substring(split)) {
            case "ms" -> Math.round(amount);
            case "s" -> Math.round(amount * 1_000);
            case "m", "min" -> Math.round(amount * 60_000);
            case "h" -> Math.round(amount * 3_600_000);
            case "d" -> Math.round(amount * 86_400_000);
            default -> throw new NumberFormatException(v);
        };
        return Duration.ofMillis(millis);
    }
}
