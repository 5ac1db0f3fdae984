package io.hcwatch.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numbers as producers write them: a JSON number in any form ({@code 54}, {@code 54.2},
 * {@code 5.42e1}, {@code -0}) or a string holding exactly one ({@code "54"}, as Go's
 * {@code ,string} tag and proto3's JSON mapping of 64-bit integers write them). Values are taken
 * exactly as written, never through a binary double, so {@code 2.4999999999999999} rounds to 2.
 */
final class JsonNumbers {

    /** Returned by {@link #whole} when the value is neither a number nor a string holding one. */
    static final long NOT_A_NUMBER = Long.MIN_VALUE;
    /** Returned by {@link #whole} when the value, once rounded, lies outside the field's range. */
    static final long OUT_OF_RANGE = Long.MIN_VALUE + 1;

    /** Jackson's limit for a number token; a quoted number gets no more room than an unquoted one. */
    private static final int MAX_TEXT = 1000;

    private static final BigDecimal HALF = new BigDecimal("0.5");

    private JsonNumbers() {
    }

    /**
     * The value rounded half away from zero to a whole number in [min, max] (both above
     * {@link #OUT_OF_RANGE}), else {@link #NOT_A_NUMBER} or {@link #OUT_OF_RANGE}.
     */
    static long whole(JsonNode v, long min, long max) {
        if (v.isInt() || v.isLong()) {
            return within(v.longValue(), min, max);
        }
        if (v.isTextual()) {
            long plain = plainInteger(v.textValue());
            if (plain != NOT_A_NUMBER) {
                return within(plain, min, max);
            }
        }
        BigDecimal exact = exact(v);
        return exact == null ? NOT_A_NUMBER : rounded(exact, min, max);
    }

    /**
     * The exact value of a number node (the mapper reads fractions as BigDecimal) or of a string
     * holding a JSON number; null for anything else.
     */
    static BigDecimal exact(JsonNode v) {
        if (v.isNumber()) {
            return v.decimalValue();
        }
        return v.isTextual() ? parse(v.textValue()) : null;
    }

    /** The value of text that is exactly a JSON number (RFC 8259 §6), else null. */
    private static BigDecimal parse(String s) {
        if (!isJsonNumber(s)) {
            return null;
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException e) {
            // only an exponent beyond ±2^31 gets here: the grammar was checked above
            return null;
        }
    }

    private static long rounded(BigDecimal x, long min, long max) {
        // compareTo weighs exponents before digits, so 1e999999999 is judged without being expanded
        if (x.compareTo(BigDecimal.valueOf(min - 1)) < 0 || x.compareTo(BigDecimal.valueOf(max + 1)) > 0) {
            return OUT_OF_RANGE;
        }
        // below one half the scale can be huge (1e-999999999), and setScale would expand it
        long n = x.abs().compareTo(HALF) < 0 ? 0 : x.setScale(0, RoundingMode.HALF_UP).longValue();
        return within(n, min, max);
    }

    private static long within(long n, long min, long max) {
        return n >= min && n <= max ? n : OUT_OF_RANGE;
    }

    /** {@code -?(0|[1-9][0-9]{0,17})}: the common quoted form, read without allocating. */
    private static long plainInteger(String s) {
        int i = s.startsWith("-") ? 1 : 0;
        int digits = s.length() - i;
        if (digits < 1 || digits > 18 || (s.charAt(i) == '0' && digits > 1)) {
            return NOT_A_NUMBER;
        }
        long v = AsciiNumbers.parseLong(s, 0, s.length());
        return v == AsciiNumbers.INVALID ? NOT_A_NUMBER : v;
    }

    /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, at most {@link #MAX_TEXT} characters. */
    private static boolean isJsonNumber(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_TEXT) {
            return false;
        }
        int i = s.charAt(0) == '-' ? 1 : 0;
        if (i == n || !AsciiNumbers.isDigit(s.charAt(i))) {
            return false;
        }
        i = s.charAt(i) == '0' ? i + 1 : digits(s, i);
        if (i < n && s.charAt(i) == '.') {
            int from = i + 1;
            i = digits(s, from);
            if (i == from) {
                return false;
            }
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int from = i;
            i = digits(s, from);
            if (i == from) {
                return false;
            }
        }
        return i == n;
    }

    private static int digits(String s, int from) {
        int i = from;
        while (i < s.length() && AsciiNumbers.isDigit(s.charAt(i))) {
            i++;
        }
        return i;
    }
}
