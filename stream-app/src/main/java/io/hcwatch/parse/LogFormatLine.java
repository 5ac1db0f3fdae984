package io.hcwatch.parse;

import io.hcwatch.avro.v1.HaproxyRequest;

/**
 * Matches one line against a text log-format, piece by piece. A field's value ends where the text
 * after it in the format is found, or where the value shows its own end (quotes, braces, dates).
 * A field that may hold that text itself ({@code %r}, {@code %[...]}, ...) tries its next
 * occurrences when the rest of the line does not match: a bounded number of steps, so no line
 * costs more than a few times its length. A line cut inside a field (no closing quote, brace or
 * following text: syslog's size limit) keeps what it has, as the built-in parser does.
 * Single use: one instance per line.
 */
final class LogFormatLine {

    /** Steps per line; a line that matches takes one per piece of the format. */
    private static final int BUDGET = 512;

    /** {@link #field} read the rest of the line too (trying the field's ends one by one), and it matched. */
    private static final int MATCHED = -1;
    /** {@link #field}: the field, or the rest of the line after each of its ends, does not match. */
    private static final int FAILED = -2;

    private final LogFormat format;
    private final LogFormatNode[] nodes;
    private final String s;
    private final int n;
    private final LogFormatValues values;
    private int budget = BUDGET;
    private boolean cut;
    private int failedAt = -1;
    private int failedNode;
    private String failedReason;
    private String failedExpected;
    private CharSequence failedHeld;

    private final int start;

    LogFormatLine(LogFormat format, String line, int bodyStart, LogFormatValues values) {
        this.format = format;
        this.nodes = format.nodes;
        this.s = line;
        this.n = line.length();
        this.values = values;
        this.start = bodyStart;
    }

    /** @return null when the line matches (its values are then read), else why not and how far it got */
    LogFormat.Miss run() {
        if (match(0, start)) {
            return null;
        }
        LogFormatNode node = nodes[failedNode];
        String what = node.kind() == LogFormatNode.Kind.FIELD ? "log-format field " + node.alias()
                : node.kind() == LogFormatNode.Kind.LITERAL ? "log-format text '" + node.text() + "'" : "log-format separator";
        ParseResult<HaproxyRequest> rejected = Rejections.reject(failedReason, what + " at offset " + failedAt + " of '"
                + Rejections.shown(format.toString()) + "'", failedHeld, failedExpected);
        return new LogFormat.Miss(rejected, failedNode == 0 ? 0 : Math.max(failedAt - start, 0));
    }

    /**
     * Whether {@code nodes[i..]} match {@code s[p..]}. One step per piece, in a loop: only a field that
     * may end at more than one place calls this again for what follows each end it tries, so a line
     * costs no deeper a stack than its format has such fields (httplog: one, {@code %ci}).
     * A piece that fails returns at once: the nearest field with another end to try restores
     * {@link #cut} as it was before it tried this one.
     */
    private boolean match(int i, int p) {
        while (true) {
            if (--budget < 0) {
                return fail(i, p, RejectReason.BAD_FIELD, "", "a line this format can split in fewer than " + BUDGET + " steps");
            }
            if (i == nodes.length) {
                int q = p;
                while (q < n && s.charAt(q) == ' ') {
                    q++;
                }
                return q == n || fail(i - 1, p, RejectReason.BAD_FIELD, s.substring(p), "the end of the line");
            }
            if (p >= n && cut) {
                for (int k = i; k < nodes.length; k++) {
                    if (nodes[k].kind() == LogFormatNode.Kind.FIELD) {
                        values.set(nodes[k], null, 0, 0);
                    }
                }
                return true;
            }
            LogFormatNode node = nodes[i];
            switch (node.kind()) {
                case LITERAL -> {
                    String text = node.text();
                    if (!s.startsWith(text, p)) {
                        return fail(i, p, RejectReason.BAD_FIELD, s.substring(p, Math.min(n, p + text.length())),
                                "'" + text + "'");
                    }
                    p += text.length();
                }
                case SEPARATOR -> {
                    while (p < n && s.charAt(p) == ' ') {
                        p++;
                    }
                }
                default -> {
                    p = field(i, node, p);
                    if (p == MATCHED) {
                        return true;
                    }
                    if (p == FAILED) {
                        return false;
                    }
                }
            }
            i++;
        }
    }

    /** @return where the field's value ends, when it can end at one place only; else {@link #MATCHED} or {@link #FAILED} */
    private int field(int i, LogFormatNode node, int p) {
        if (node.quoted() && p < n && s.charAt(p) == '"') {
            int close = find("\"", '"', p + 1, node.escaped());
            cut |= close < 0;
            return take(i, node, p + 1, close < 0 ? n : close) ? (close < 0 ? n : close + 1) : FAILED;
        }
        switch (node.alias().shape) {
            case LOCAL_DATE -> {
                int len = p + 20 < n && s.charAt(p + 20) == '.' ? 24 : 20;
                int to = Math.min(n, p + len);
                return take(i, node, p, to) ? to : FAILED;
            }
            case ZONED_DATE -> {
                int to = Math.min(n, p + 26);
                return take(i, node, p, to) ? to : FAILED;
            }
            case BRACES -> {
                if (p >= n || s.charAt(p) != '{') {
                    return take(i, node, p, p) ? p : FAILED;
                }
                int close = s.indexOf('}', p + 1);
                cut |= close < 0;
                int to = close < 0 ? n : close + 1;
                return take(i, node, p, to) ? to : FAILED;
            }
            default -> {
                return delimited(i, node, p);
            }
        }
    }

    /** A value that ends where the format's next text does (a space for a separator, the line's end for the last field). */
    private int delimited(int i, LogFormatNode node, int p) {
        String delimiter = format.delimiters[i];
        if (delimiter == null) {
            int to = n;
            while (to > p && s.charAt(to - 1) == ' ') {
                to--;
            }
            // the rest is read from the line's end: nothing but trailing spaces may be left for it
            return take(i, node, p, to) ? n : FAILED;
        }
        int at = find(i, p, node.escaped());
        if (at >= 0 && !node.alias().mayHoldDelimiter()) {
            return take(i, node, p, at) ? at : FAILED;
        }
        while (at >= 0) {
            if (take(i, node, p, at)) {
                boolean wasCut = cut;
                if (match(i + 1, at)) {
                    return MATCHED;
                }
                cut = wasCut;
            }
            if (budget < 0) {
                return FAILED;
            }
            at = find(i, at + 1, node.escaped());
        }
        if (p >= n && node.alias().mayBeAbsent()) {
            return take(i, node, p, p) ? p : FAILED;
        }
        if (node.alias().shape != LogFormatAlias.Shape.TEXT || p >= n) {
            fail(i, p, RejectReason.FIELD_COUNT, s.substring(p), "'" + delimiter + "' after " + node.alias());
            return FAILED;
        }
        cut = true;
        return take(i, node, p, n) ? n : FAILED;
    }

    /** The next occurrence of the text after field {@code i} (see {@link #find(String, char, int, boolean)}). */
    private int find(int i, int from, boolean escaped) {
        return find(format.delimiters[i], format.delimiterChars[i], from, escaped);
    }

    /**
     * The next {@code text} from {@code from}, searched as the char {@code c} when it is one character
     * (faster than a string search); with +E, not one whose first character is escaped.
     */
    private int find(String text, char c, int from, boolean escaped) {
        int at = c != 0 ? s.indexOf(c, from) : s.indexOf(text, from);
        while (escaped && at > from && backslashesBefore(at, from) % 2 == 1) {
            at = c != 0 ? s.indexOf(c, at + 1) : s.indexOf(text, at + 1);
        }
        return at;
    }

    private int backslashesBefore(int at, int from) {
        int k = at;
        while (k > from && s.charAt(k - 1) == '\\') {
            k--;
        }
        return at - k;
    }

    private boolean take(int i, LogFormatNode node, int from, int to) {
        CharSequence v = s;
        int a = from;
        int b = to;
        if (node.escaped() && HostPort.indexOf(s, '\\', from, to) >= 0) {
            v = unescape(from, to);
            a = 0;
            b = v.length();
        }
        String expected = values.set(node, v, a, b);
        if (expected != null) {
            return fail(i, from, reasonFor(node.alias()), s.substring(from, to), expected);
        }
        return true;
    }

    private String unescape(int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            if (c == '\\' && k + 1 < to) {
                c = s.charAt(++k);
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String reasonFor(LogFormatAlias alias) {
        return switch (alias.shape) {
            case LOCAL_DATE, ZONED_DATE -> RejectReason.BAD_TIMESTAMP;
            case ADDRESS, PORT -> alias == LogFormatAlias.CLIENT_IP || alias == LogFormatAlias.CLIENT_PORT
                    ? RejectReason.BAD_ADDRESS : RejectReason.BAD_NUMBER;
            case NUMBER, TIMER -> RejectReason.BAD_NUMBER;
            default -> RejectReason.BAD_FIELD;
        };
    }

    /** Keeps the failure furthest into the line: where the line and the format really part. */
    private boolean fail(int node, int at, String reason, CharSequence held, String expected) {
        if (at > failedAt || (at == failedAt && node >= failedNode)) {
            failedAt = at;
            failedNode = Math.max(node, 0);
            failedReason = reason;
            failedHeld = held;
            failedExpected = expected;
        }
        return false;
    }
}
