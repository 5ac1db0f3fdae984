package io.hcwatch.parse;

/**
 * Allocation-free number parsing over a range of a line. The hot parsers call these for every field,
 * so substring + {@code Integer.parseInt} (and its exceptions) are avoided.
 */
final class AsciiNumbers {

    /** Returned by {@link #parseLong} when the range is not a decimal integer. */
    static final long INVALID = Long.MIN_VALUE;

    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    };

    private AsciiNumbers() {
    }

    /** An optionally negative decimal integer of at most 18 digits, else {@link #INVALID}. */
    static long parseLong(CharSequence s, int from, int to) {
        boolean negative = false;
        int i = from;
        if (i < to && s.charAt(i) == '-') {
            negative = true;
            i++;
        }
        int digits = to - i;
        if (digits <= 0 || digits > 18) {
            return INVALID;
        }
        long value = 0;
        for (; i < to; i++) {
            int d = s.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return INVALID;
            }
            value = value * 10 + d;
        }
        return negative ? -value : value;
    }

    /** An int that must lie in [min, max], else {@link #INVALID}. */
    static long parseBounded(CharSequence s, int from, int to, long min, long max) {
        long v = parseLong(s, from, to);
        return v == INVALID || v < min || v > max ? INVALID : v;
    }

    /**
     * A plain decimal ({@code -?digits[.digits]}), else NaN. Dividing an exact integer mantissa by an
     * exact power of ten is correctly rounded, so the result equals {@link Double#parseDouble}.
     */
    static double parseDecimal(CharSequence s, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && s.charAt(i) == '-') {
            negative = true;
            i++;
        }
        long mantissa = 0;
        int significant = 0;
        int decimals = -1;
        boolean anyDigit = false;
        for (; i < to; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                if (decimals >= 0) {
                    return Double.NaN;
                }
                decimals = 0;
                continue;
            }
            int d = c - '0';
            if (d < 0 || d > 9) {
                return Double.NaN;
            }
            anyDigit = true;
            if (mantissa != 0 || d != 0) {
                significant++;
            }
            mantissa = mantissa * 10 + d;
            if (decimals >= 0) {
                decimals++;
            }
            if (significant > 15) {
                return slowPath(s, from, to);
            }
        }
        if (!anyDigit || decimals == 0) {
            return Double.NaN;
        }
        int scale = Math.max(decimals, 0);
        if (scale >= POWERS_OF_TEN.length) {
            return slowPath(s, from, to);
        }
        double value = mantissa / POWERS_OF_TEN[scale];
        return negative ? -value : value;
    }

    private static double slowPath(CharSequence s, int from, int to) {
        try {
            return Double.parseDouble(s.subSequence(from, to).toString());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Two ASCII digits at {@code at}, else -1. */
    static int twoDigits(CharSequence s, int at) {
        char a = s.charAt(at);
        char b = s.charAt(at + 1);
        if (!isDigit(a) || !isDigit(b)) {
            return -1;
        }
        return (a - '0') * 10 + (b - '0');
    }
}
