package io.hcwatch.parse;

import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import java.time.Clock;
import java.time.Instant;

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

    private final LogDates dates;

    public HaproxyLogParser() {
        this(Clock.systemUTC());
    }

    public HaproxyLogParser(Clock clock) {
        this(LogDates.live(clock));
    }

    public HaproxyLogParser(LogDates dates) {
        this.dates = dates;
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
        if (HaproxyTrafficLineParser.looksLikeTraffic(text, body)) {
            return HaproxyTrafficLineParser.parse(text, prefix, prefix.zone(dates.clock())).map(HaproxyLine::new);
        }
        for (String[] known : LIFECYCLE) {
            if (text.startsWith(known[0], body)) {
                return ParseResult.skipped(known[1]);
            }
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
            return Rejections.reject(RejectReason.UNKNOWN_MESSAGE, "HAProxy message", text.substring(body),
                    "a traffic, health check, server state or lifecycle message");
        }
        return Rejections.reject(RejectReason.NOT_HAPROXY, "line", text,
                "an HAProxy log line (traffic, health check, server state), optionally with a syslog prefix");
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return end == line.length() ? line : line.substring(0, end);
    }
}
