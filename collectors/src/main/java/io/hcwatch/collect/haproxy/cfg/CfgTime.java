package io.hcwatch.collect.haproxy.cfg;

/**
 * A haproxy.cfg time ("2s", "500", "1m30s" is not HAProxy's: one number and one unit) in
 * milliseconds. HAProxy reads a bare number as milliseconds and takes us, ms, s, m, h and d.
 */
final class CfgTime {

    private CfgTime() {
    }

    /** Milliseconds, or null when {@code text} is not a HAProxy time. */
    static Integer millis(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        int i = 0;
        long value = 0;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
            value = value * 10 + (text.charAt(i) - '0');
            if (value > Integer.MAX_VALUE) {
                return null;
            }
            i++;
        }
        if (i == 0) {
            return null;
        }
        long ms = switch (text.substring(i)) {
            case "", "ms" -> value;
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            case "m" -> value * 60_000;
            case "h" -> value * 3_600_000;
            case "d" -> value * 86_400_000;
            default -> -1;
        };
        return ms < 0 || ms > Integer.MAX_VALUE ? null : (int) ms;
    }

    /** A non-negative count such as rise or fall, or null. */
    static Integer count(String text) {
        if (text == null || text.isEmpty() || !text.chars().allMatch(Character::isDigit) || text.length() > 9) {
            return null;
        }
        return Integer.valueOf(text);
    }
}
