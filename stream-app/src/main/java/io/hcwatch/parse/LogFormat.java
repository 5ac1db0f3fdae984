package io.hcwatch.parse;

import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.haproxy.BuiltinLogFormats;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * A parser compiled from HAProxy's own log-format string: it reads the traffic lines HAProxy
 * writes with that format into the same {@link HaproxyRequest} the built-in parser gives. Text
 * formats are matched piece by piece ({@link LogFormatLine}); a format encoded with
 * {@code %{+json}o} (HAProxy 3) is read as the JSON object it writes ({@link LogFormatJson}).
 * Immutable and thread-safe.
 */
public final class LogFormat {

    /** {@code option httplog}, as HAProxy 2.6 defines it (configuration.txt, "HTTP log format"). */
    public static final String HTTPLOG = BuiltinLogFormats.HTTPLOG;
    /** {@code option httpslog}: httplog followed by the connection's TLS details. */
    public static final String HTTPSLOG = BuiltinLogFormats.HTTPSLOG;
    /** {@code option tcplog}. */
    public static final String TCPLOG = BuiltinLogFormats.TCPLOG;
    /** {@code option httplog clf}: the Common Log Format, then HAProxy's own fields. */
    public static final String CLF = BuiltinLogFormats.CLF;

    private final String source;
    private final String frontend;
    final LogFormatNode[] nodes;
    /** The text that ends each piece's value in a text format: the next piece's, null when a field or nothing follows. */
    final String[] delimiters;
    /** The delimiter when it is one character (a separator's space, '/', ':', ...), searched as a char; else 0. */
    final char[] delimiterChars;
    final boolean json;
    final boolean http;
    final boolean activeTimer;
    final boolean logsDate;
    private final boolean namesFrontend;

    private LogFormat(String source, String frontend, List<LogFormatNode> nodes, boolean json) {
        this.source = source;
        this.frontend = frontend;
        this.nodes = nodes.toArray(new LogFormatNode[0]);
        this.delimiters = new String[this.nodes.length];
        this.delimiterChars = new char[this.nodes.length];
        for (int i = 0; i + 1 < this.nodes.length; i++) {
            LogFormatNode next = this.nodes[i + 1];
            delimiters[i] = next.kind() == LogFormatNode.Kind.FIELD ? null : next.text();
            delimiterChars[i] = delimiters[i] != null && delimiters[i].length() == 1 ? delimiters[i].charAt(0) : 0;
        }
        this.json = json;
        boolean anyHttp = false;
        boolean ta = false;
        boolean date = false;
        boolean namesFrontend = false;
        for (LogFormatNode node : nodes) {
            if (node.kind() == LogFormatNode.Kind.FIELD) {
                LogFormatAlias a = node.alias();
                anyHttp |= a.isHttp();
                ta |= a == LogFormatAlias.TIME_ACTIVE;
                date |= a.shape == LogFormatAlias.Shape.LOCAL_DATE || a.shape == LogFormatAlias.Shape.ZONED_DATE
                        || a == LogFormatAlias.ACCEPT_SECONDS;
                namesFrontend |= a == LogFormatAlias.FRONTEND || a == LogFormatAlias.FRONTEND_TRANSPORT;
            }
        }
        if (nodes.stream().noneMatch(n -> n.kind() == LogFormatNode.Kind.FIELD)) {
            throw new LogFormatException("log-format '" + source + "' logs no field at all");
        }
        if (!namesFrontend && frontend == null) {
            throw new LogFormatException("log-format '" + source + "' logs no frontend (%f or %ft): declare it for "
                    + "one frontend, whose name its lines then carry");
        }
        this.http = anyHttp;
        this.activeTimer = ta;
        this.logsDate = date;
        this.namesFrontend = namesFrontend;
    }

    /**
     * A format as haproxy.cfg holds it after {@code log-format} (quotes and backslash escapes as
     * HAProxy reads them), or the name of a built-in one: {@code httplog}, {@code httpslog},
     * {@code tcplog}, {@code clf}.
     *
     * @param frontend the frontend whose lines these are, when the format is declared for one; its
     *                 name is then the lines' frontend when the format logs none
     * @throws LogFormatException with one line saying what in the format cannot be read
     */
    public static LogFormat compile(String configured, String frontend) {
        String builtin = builtin(configured);
        return ofHaproxyFormat(builtin != null ? builtin : LogFormatCompiler.configArgument(configured), frontend);
    }

    /**
     * A format as HAProxy holds it once its configuration line is read (no quotes or escapes of the
     * line left), e.g. the documented format of an option, or a collector's {@code log_format}.
     *
     * @throws LogFormatException with one line saying what in the format cannot be read
     */
    public static LogFormat ofHaproxyFormat(String format, String frontend) {
        if (format == null || format.isBlank()) {
            throw new LogFormatException("log-format is empty");
        }
        LogFormatCompiler.Compiled c = LogFormatCompiler.compile(format);
        return new LogFormat(format, frontend, c.nodes(), c.json());
    }

    /** The format HAProxy uses for {@code option <name>} (httplog, httpslog, tcplog, clf), else null. */
    static String builtin(String name) {
        return BuiltinLogFormats.named(name);
    }

    /** The format as HAProxy reads it (quotes and escapes of the configuration line resolved). */
    public String source() {
        return source;
    }

    /** Whether its lines name their frontend ({@code %f} or {@code %ft}), so one compiled format serves any frontend. */
    public boolean namesFrontend() {
        return namesFrontend;
    }

    /** The frontend it was declared for, or null. */
    public String frontend() {
        return frontend;
    }

    /**
     * How one line fared: the record or a rejection, and how far into the line the format matched
     * (0 when its first piece did not), so the most telling rejection of several formats is shown.
     */
    record Attempt(ParseResult<HaproxyRequest> result, int reached) {
    }

    /** A line the format does not match: why, and how far into the line it got. */
    record Miss(ParseResult<HaproxyRequest> rejection, int reached) {
    }

    /** The traffic line after {@code prefix}; dates without a zone are in {@code zone}. */
    Attempt parse(String line, SyslogPrefix prefix, ZoneId zone, LogDates dates) {
        LogFormatValues values = new LogFormatValues(zone);
        int body = prefix.bodyStart();
        Miss miss = json ? LogFormatJson.read(this, line, body, values) : new LogFormatLine(this, line, body, values).run();
        if (miss != null) {
            return new Attempt(miss.rejection(), miss.reached());
        }
        int reached = line.length() - body;
        Instant ts = values.time();
        if (ts == null && !logsDate) {
            ts = prefix.instant(dates);
        }
        if (ts == null) {
            return new Attempt(Rejections.reject(RejectReason.BAD_TIMESTAMP, "log-format date", "",
                    logsDate ? "the date the format logs" : "a syslog timestamp (the format logs no date)"), reached);
        }
        if (values.frontend == null) {
            values.frontend = frontend;
        }
        if (values.frontend == null) {
            return new Attempt(Rejections.reject(RejectReason.MISSING_FIELD, "frontend (%f/%ft)", "-", "a frontend name"),
                    reached);
        }
        return new Attempt(ParseResult.ok(values.toRecord(http, activeTimer, ts, prefix)), reached);
    }

    @Override
    public String toString() {
        return (frontend == null ? "" : frontend + ": ") + source;
    }
}
