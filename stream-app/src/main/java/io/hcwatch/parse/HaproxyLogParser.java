package io.hcwatch.parse;

import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.avro.v1.HaproxyRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * Parses one HAProxy log line, with or without its syslog/console prefix, into a
 * {@link HaproxyLine} (traffic), a {@link io.hcwatch.input.Check} (health check and server state
 * messages) or a {@link io.hcwatch.input.BackendNotice} ({@code has no server available!}). Lifecycle messages with nothing to measure are skipped.
 *
 * <p><b>Years and zones.</b> Traffic lines are timed by HAProxy's accept date, which has a year.
 * Check and state lines are timed by their prefix, and RFC 3164 or console prefixes carry no year:
 * it is {@link LogDates#year()} when set, else taken from the clock (the most recent such date not
 * more than a day ahead of it, see {@link SyslogPrefix#instant}). Dates without a zone are read in
 * the prefix's own UTC offset when it has one, else in the clock's zone. A line with no timestamp at
 * all is timed by the clock. Replays of old files pass the year and the hosts' zone
 * ({@code replay --year/--zone}).
 *
 * <p>Stateless apart from the clock; thread-safe.
 */
public final class HaproxyLogParser implements LineParser<Decoded> {

    private static final String[][] LIFECYCLE = {
        {"Proxy ", "proxy_lifecycle"},
        {"Stopping ", "proxy_lifecycle"},
        {"Pausing ", "proxy_lifecycle"},
        {"Resuming ", "proxy_lifecycle"},
        {"Connect from ", "legacy_connect"},
        {"Loading success", "process_lifecycle"},
        {"New worker", "process_lifecycle"},
        {"Exiting Master", "process_lifecycle"},
        {"Current worker", "process_lifecycle"},
        {"Reexecuting Master", "process_lifecycle"},
        {"Master started", "process_lifecycle"},
        {"All workers exited", "process_lifecycle"},
        {"haproxy version is", "process_lifecycle"},
    };

    /** Where an unknown line's rejection points, as the README documents it. */
    static final String HOW_TO_DECLARE = "give the collector the host's haproxy.cfg (haproxy.host.<id>.config-file: "
            + "it publishes each frontend's log-format), or declare the format in the stream app's config: "
            + "haproxy.log-format.<frontend>=<what follows log-format in haproxy.cfg, or httplog|httpslog|tcplog|clf>, "
            + "or haproxy.log-format=... for every frontend (README, Connecting HAProxy)";

    private final LogDates dates;
    private final HaproxyLogFormats formats;

    public HaproxyLogParser() {
        this(Clock.systemUTC());
    }

    public HaproxyLogParser(Clock clock) {
        this(LogDates.live(clock));
    }

    public HaproxyLogParser(LogDates dates) {
        this(dates, HaproxyLogFormats.none());
    }

    /** @param formats the log-formats frontends declare; lines in none of them are read in the built-in formats */
    public HaproxyLogParser(LogDates dates, HaproxyLogFormats formats) {
        this.dates = dates;
        this.formats = formats;
    }

    @Override
    public ParseResult<Decoded> parse(String line) {
        if (line == null || line.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "line is empty");
        }
        String text = stripLineEnd(line);
        SyslogPrefix prefix = SyslogPrefixParser.parse(text);
        int body = prefix.bodyStart();
        if (body >= text.length()) {
            return Rejections.reject(RejectReason.NOT_HAPROXY, "line", text, "an HAProxy message after the prefix");
        }
        LogFormat.Attempt closest = null;
        if (!formats.declared().isEmpty()) {
            ZoneId zone = prefix.zone(dates.clock());
            for (LogFormat format : formats.declared()) {
                LogFormat.Attempt a = format.parse(text, prefix, zone, dates);
                if (a.result() instanceof ParseResult.Ok<HaproxyRequest> ok) {
                    // a line some other frontend's format happens to fit is not that frontend's
                    if (formats.forFrontend(ok.value().getHost(), ok.value().getFrontend()) == format) {
                        return ParseResult.ok(new HaproxyLine(ok.value()));
                    }
                } else if (a.reached() > 0 && (closest == null || a.reached() > closest.reached())) {
                    closest = a;
                }
            }
        }
        ParseResult<Decoded> builtin = builtin(text, prefix, body);
        if (builtin instanceof ParseResult.Rejected<Decoded> && closest != null) {
            return closest.result().map(HaproxyLine::new);
        }
        return builtin;
    }

    /** The built-in formats: httplog, tcplog, the connection-error line, checks, server states and lifecycle messages. */
    private ParseResult<Decoded> builtin(String text, SyslogPrefix prefix, int body) {
        if (HaproxyTrafficLineParser.looksLikeTraffic(text, body)) {
            ParseResult<HaproxyRequest> traffic = HaproxyTrafficLineParser.parse(text, prefix, prefix.zone(dates.clock()));
            if (traffic instanceof ParseResult.Rejected<HaproxyRequest> r) {
                // the line may be in a format of its frontend's own rather than a damaged httplog or tcplog line
                return ParseResult.rejected(r.reason(), r.error() + " (httplog or tcplog); if the frontend logs with its own "
                        + "log-format, " + HOW_TO_DECLARE);
            }
            return traffic.map(HaproxyLine::new);
        }
        for (String[] known : LIFECYCLE) {
            if (text.startsWith(known[0], body)) {
                return ParseResult.skipped(known[1]);
            }
        }
        if (text.charAt(body) == '{') {
            return unknownFormat(text, body);
        }
        Instant ts = prefix.instant(dates);
        if (ts == null) {
            return Rejections.reject(RejectReason.BAD_TIMESTAMP, "syslog timestamp", text.substring(0, body),
                    dates.year() == null ? "a date that exists in the clock's year or the years before it"
                            : "a date that exists in " + dates.year());
        }
        ParseResult<Decoded> check = HaproxyCheckLineParser.parse(text, prefix, ts);
        if (check != null) {
            return check;
        }
        if (prefix.recognised()) {
            return unknownFormat(text, body);
        }
        return Rejections.reject(RejectReason.NOT_HAPROXY, "line", text,
                "an HAProxy log line (traffic, health check, server state), optionally with a syslog prefix");
    }

    private static ParseResult<Decoded> unknownFormat(String text, int body) {
        return Rejections.reject(RejectReason.UNKNOWN_FORMAT, "HAProxy message", text.substring(body),
                "a line in a known format (httplog, tcplog, a health check, server state or lifecycle message, "
                        + "or a declared log-format); " + HOW_TO_DECLARE);
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return end == line.length() ? line : line.substring(0, end);
    }
}
