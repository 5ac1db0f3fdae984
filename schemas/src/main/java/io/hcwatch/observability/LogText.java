package io.hcwatch.observability;

/**
 * A value from input (a target group, host, frontend or object name, a key, a message a remote
 * service sent) made safe to write into a log line: whoever writes the input must not be able to
 * start a forged log line with a newline, rewrite the terminal with escape sequences, or flood the
 * log with one huge name. Control characters (C0, DEL, C1), the Unicode line and paragraph
 * separators and the bidirectional overrides become {@code \n}, {@code \r}, {@code \t} or
 * {@code \}{@code uXXXX}; a backslash becomes {@code \\}, so an escape in the log always
 * means an escaped character; past {@link #MAX_CHARS} the text is cut, saying how much was left out.
 */
public final class LogText {

    static final int MAX_CHARS = 512;

    private LogText() {
    }

    /** The escaped text of {@code value}; {@code null} for null. */
    public static String of(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value.toString();
        int shown = Math.min(text.length(), MAX_CHARS);
        if (shown > 0 && shown < text.length() && Character.isHighSurrogate(text.charAt(shown - 1))) {
            shown--;
        }
        int first = firstToEscape(text, shown);
        if (first == shown && shown == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(shown + 16).append(text, 0, first);
        for (int i = first; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (needsEscape(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (shown < text.length()) {
            out.append("...(").append(text.length() - shown).append(" more chars)");
        }
        return out.toString();
    }

    private static int firstToEscape(String text, int end) {
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\\' || needsEscape(c)) {
                return i;
            }
        }
        return end;
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
                || (c >= '\u2066' && c <= '\u2069') || c == '\u061c' || c == '\u200e' || c == '\u200f';
    }
}
