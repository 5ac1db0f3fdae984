package io.hcwatch.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a log-format as haproxy.cfg holds it (after {@code log-format}: quotes, backslash escapes
 * and HAProxy's own {@code ${HAPROXY_*_LOG_FMT}} variables as HAProxy reads them) into its pieces:
 * {@code %alias}, {@code %[sample]}, {@code %(name)} for JSON keys, {@code %{+Q,+X,+E,-Q...}} on one
 * field or, followed by {@code o}, on every field after it ({@code %{+json}o} encodes the whole line
 * as a JSON object), {@code %%} for a percent sign, spaces as separators, anything else as text.
 */
final class LogFormatCompiler {

    /** The variables HAProxy 3 defines with the formats of option httplog, httpslog and tcplog. */
    private static final Map<String, String> VARIABLES = Map.of(
            "HAPROXY_HTTP_LOG_FMT", LogFormat.HTTPLOG,
            "HAPROXY_HTTPS_LOG_FMT", LogFormat.HTTPSLOG,
            "HAPROXY_TCP_LOG_FMT", LogFormat.TCPLOG);

    private final String f;
    private final List<LogFormatNode> nodes = new ArrayList<>();
    private final StringBuilder literal = new StringBuilder();
    private boolean quoted;
    private boolean hex;
    private boolean escaped;
    private boolean json;
    private int i;

    private LogFormatCompiler(String format) {
        this.f = format;
    }

    record Compiled(List<LogFormatNode> nodes, boolean json) {
    }

    /**
     * @param format the format as HAProxy holds it once it has read its configuration line (see
     *               {@link #configArgument} for the line's form)
     * @throws LogFormatException naming the character where the format stops making sense
     */
    static Compiled compile(String format) {
        LogFormatCompiler c = new LogFormatCompiler(format);
        c.run();
        return new Compiled(List.copyOf(c.nodes), c.json);
    }

    private void run() {
        int n = f.length();
        while (i < n) {
            char c = f.charAt(i);
            if (c == ' ') {
                flushLiteral();
                if (!nodes.isEmpty() && nodes.get(nodes.size() - 1).kind() != LogFormatNode.Kind.SEPARATOR) {
                    nodes.add(LogFormatNode.separator());
                }
                i++;
            } else if (c == '%') {
                i++;
                if (i < n && f.charAt(i) == '%') {
                    literal.append('%');
                    i++;
                } else {
                    percent();
                }
            } else {
                literal.append(c);
                i++;
            }
        }
        flushLiteral();
        if (!nodes.isEmpty() && nodes.get(nodes.size() - 1).kind() == LogFormatNode.Kind.SEPARATOR) {
            nodes.remove(nodes.size() - 1);
        }
        checkFieldsCanBeToldApart();
    }

    /** After a '%': [(name)] [{flags}] then an alias, [sample] or, for flags, 'o'. */
    private void percent() {
        int start = i - 1;
        String name = null;
        if (at('(')) {
            int close = f.indexOf(')', i);
            if (close < 0) {
                throw error(start, "%( without its closing )");
            }
            name = f.substring(i + 1, close);
            int colon = name.indexOf(':');
            if (colon >= 0) {
                name = name.substring(0, colon); // a type (:sint, :str, :bool) changes only how HAProxy encodes it
            }
            i = close + 1;
        }
        boolean q = quoted;
        boolean x = hex;
        boolean e = escaped;
        boolean fieldJson = false;
        if (at('{')) {
            int close = f.indexOf('}', i);
            if (close < 0) {
                throw error(start, "%{ without its closing }");
            }
            boolean[] flags = {q, x, e, false};
            for (String flag : f.substring(i + 1, close).split(",")) {
                applyFlag(flag.trim(), flags, start);
            }
            q = flags[0];
            x = flags[1];
            e = flags[2];
            fieldJson = flags[3];
            i = close + 1;
            if (at('o')) {
                quoted = q;
                hex = x;
                escaped = e;
                json |= fieldJson;
                i++;
                return;
            }
        }
        LogFormatAlias alias;
        if (at('[')) {
            int close = closingBracket(i);
            if (close < 0) {
                throw error(start, "%[ without its closing ]");
            }
            alias = LogFormatAlias.SAMPLE;
            if (name == null) {
                name = f.substring(i + 1, close);
            }
            i = close + 1;
        } else {
            int end = i;
            while (end < f.length() && Character.isLetter(f.charAt(end))) {
                end++;
            }
            String word = f.substring(i, end);
            alias = LogFormatAlias.named(word);
            if (alias == null) {
                throw error(start, word.isEmpty() ? "% followed by no alias (write %% for a percent sign)"
                        : "%" + word + " is not an HAProxy log-format alias");
            }
            i = end;
        }
        flushLiteral();
        nodes.add(LogFormatNode.field(alias, name == null ? alias.name : name, q && !fieldJson, x, e));
    }

    private void applyFlag(String flag, boolean[] flags, int at) {
        boolean on = flag.startsWith("+");
        if (!on && !flag.startsWith("-")) {
            throw error(at, "flag '" + flag + "' (flags are +Q, +X, +E, +json or -Q, -X, -E)");
        }
        switch (flag.substring(1)) {
            case "Q" -> flags[0] = on;
            case "X" -> flags[1] = on;
            case "E" -> flags[2] = on;
            case "json" -> flags[3] = on;
            case "cbor", "bin" -> throw error(at, "%{+cbor} writes binary CBOR, which hcwatch does not read; use %{+json}");
            default -> throw error(at, "flag '" + flag + "' (flags are +Q, +X, +E, +json or -Q, -X, -E)");
        }
    }

    /** Sample expressions may hold brackets of their own, e.g. %[req.hdr(x),regsub([0-9],_)]. */
    private int closingBracket(int open) {
        int depth = 0;
        for (int k = open; k < f.length(); k++) {
            char c = f.charAt(k);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return k;
            }
        }
        return -1;
    }

    private void flushLiteral() {
        if (!literal.isEmpty()) {
            nodes.add(LogFormatNode.literal(literal.toString()));
            literal.setLength(0);
        }
    }

    /** Two fields with nothing between them can only be split where the first one's value ends by itself. */
    private void checkFieldsCanBeToldApart() {
        if (json) {
            return;
        }
        for (int k = 0; k + 1 < nodes.size(); k++) {
            LogFormatNode a = nodes.get(k);
            LogFormatNode b = nodes.get(k + 1);
            if (a.kind() == LogFormatNode.Kind.FIELD && b.kind() == LogFormatNode.Kind.FIELD && !a.endsItself()) {
                throw new LogFormatException("log-format '" + f + "': " + a.alias() + " is followed by " + b.alias()
                        + " with nothing between them, so where one ends cannot be told");
            }
        }
    }

    private boolean at(char c) {
        return i < f.length() && f.charAt(i) == c;
    }

    private LogFormatException error(int at, String what) {
        return new LogFormatException("log-format '" + f + "' at character " + (at + 1) + ": " + what);
    }

    /**
     * The argument as HAProxy reads it from its configuration line: double quotes (in which a
     * backslash escapes the next character and {@code ${VAR}} is expanded), single quotes (taken
     * literally), and outside quotes a backslash escaping the next character (e.g. {@code \ }).
     */
    static String configArgument(String configured) {
        if (configured == null || configured.isBlank()) {
            throw new LogFormatException("log-format is empty");
        }
        String s = configured.strip();
        StringBuilder out = new StringBuilder(s.length());
        char quote = 0;
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    out.append(c);
                }
            } else if (c == '\\' && k + 1 < s.length()) {
                out.append(s.charAt(++k));
            } else if (quote == '"' && c == '"') {
                quote = 0;
            } else if (quote == 0 && (c == '"' || c == '\'')) {
                quote = c;
            } else if (quote == '"' && c == '$' && k + 1 < s.length() && s.charAt(k + 1) == '{') {
                int close = s.indexOf('}', k);
                String variable = close < 0 ? s.substring(k + 2) : s.substring(k + 2, close);
                String value = VARIABLES.get(variable);
                if (value == null) {
                    throw new LogFormatException("log-format " + configured + ": ${" + variable + "} is not one of "
                            + "HAProxy's log-format variables (HAPROXY_HTTP_LOG_FMT, HAPROXY_HTTPS_LOG_FMT, "
                            + "HAPROXY_TCP_LOG_FMT); write the format itself");
                }
                out.append(value);
                k = close < 0 ? s.length() : close;
            } else {
                out.append(c);
            }
        }
        if (quote != 0) {
            throw new LogFormatException("log-format " + configured + ": the quote " + quote + " is not closed");
        }
        return out.toString();
    }
}
