package io.hcwatch.parse;

/** Builds rejection messages that name the field, show what it held and say what was expected. */
final class Rejections {

    /** Keeps DLQ messages readable and bounded even when a field holds a megabyte of garbage. */
    static final int MAX_SHOWN = 80;

    private Rejections() {
    }

    static <T> ParseResult<T> reject(String reason, String field, CharSequence held, String expected) {
        return ParseResult.rejected(reason, describe(field, held, expected));
    }

    static String describe(String field, CharSequence held, String expected) {
        return field + " held '" + shown(held) + "', expected " + expected;
    }

    static String shown(CharSequence held) {
        if (held == null) {
            return "";
        }
        if (held.length() <= MAX_SHOWN) {
            return printable(held);
        }
        return printable(held.subSequence(0, MAX_SHOWN)) + "…(" + held.length() + " chars)";
    }

    /** Control characters would break one-line DLQ messages and log viewers. */
    private static String printable(CharSequence s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
