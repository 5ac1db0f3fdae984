package io.hcwatch.parse;

/**
 * Finds where the HAProxy message starts in a line and what the prefix says. Prefixes seen in the
 * wild, any of which may be absent:
 * <ul>
 *   <li>{@code <30>} syslog PRI, with or without an RFC 5424 version digit after it;</li>
 *   <li>a timestamp: RFC 3164 {@code Feb  6 12:14:14}, RFC 3339 {@code 2021-12-15T16:55:18+01:00},
 *       or the console form {@code 2023-04-04 15:54:26}; a relay may put its own RFC 3339 time and
 *       {@code facility.severity} in front ({@code 2020-03-16T14:09:50.276+03:00 local2.info ...});</li>
 *   <li>a host, then {@code haproxy[pid]:} / {@code haproxy:} (RFC 3164) or
 *       {@code haproxy 3307 -} (RFC 5424 APP-NAME PROCID MSGID); fields may be tab-separated;</li>
 *   <li>HAProxy's console level {@code [WARNING] 256/135735 (9978) :} (stderr, journald);</li>
 *   <li>RFC 5424 structured data {@code [id@pen k="v" ...]} or its nil value {@code -}.</li>
 * </ul>
 * Nothing here throws: when a piece does not match, the message is taken to start where it stopped.
 */
final class SyslogPrefixParser {

    private final String s;
    private final int n;
    private int p;
    private boolean recognised;
    private String host;
    private String program;
    private Integer pid;
    private boolean hasTimestamp;
    private int year = -1;
    private int month = -1;
    private int day = -1;
    private int dayOfYear = -1;
    private int hour;
    private int minute;
    private int second;
    private int nanos;
    private Integer offsetSeconds;

    private SyslogPrefixParser(String line) {
        this.s = line;
        this.n = line.length();
    }

    static SyslogPrefix parse(String line) {
        SyslogPrefixParser parser = new SyslogPrefixParser(line);
        parser.run();
        return parser.result();
    }

    private SyslogPrefix result() {
        return new SyslogPrefix(p, recognised, host, program, pid, hasTimestamp, year, month, day,
                dayOfYear, hour, minute, second, nanos, offsetSeconds);
    }

    private void run() {
        boolean rfc5424 = false;
        if (p < n && s.charAt(p) == '<') {
            int close = HostPort.indexOf(s, '>', p + 1, Math.min(n, p + 6));
            if (close > p + 1 && AsciiNumbers.parseLong(s, p + 1, close) != AsciiNumbers.INVALID) {
                p = close + 1;
                recognised = true;
                if (p + 1 < n && AsciiNumbers.isDigit(s.charAt(p)) && s.charAt(p + 1) == ' ') {
                    rfc5424 = true;
                    p += 2;
                }
            }
        }
        boolean timestamp = rfc3164Timestamp() || isoTimestamp();
        if (timestamp && relayFacility()) {
            // the relay's time was first; the sender's own time follows the facility.severity
            isoTimestamp();
        }
        if (timestamp || recognised) {
            recognised = true;
            if (p < n && s.charAt(p) != '[') {
                hostAndTag(rfc5424);
            }
        } else {
            bareTag();
        }
        consoleLevel();
        structuredData();
    }

    private void skipBlanks() {
        while (p < n && (s.charAt(p) == ' ' || s.charAt(p) == '\t')) {
            p++;
        }
    }

    private int tokenEnd(int from) {
        int i = from;
        while (i < n && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
            i++;
        }
        return i;
    }

    /** {@code Mmm dd HH:MM:SS} (day space-padded), RFC 3164 and everything that imitates it. */
    private boolean rfc3164Timestamp() {
        if (n - p < 16) {
            return false;
        }
        int m = CivilTime.monthOfAbbreviation(s, p);
        if (m < 0 || s.charAt(p + 3) != ' ') {
            return false;
        }
        int d = s.charAt(p + 4) == ' ' ? digit(p + 5) : AsciiNumbers.twoDigits(s, p + 4);
        int h = AsciiNumbers.twoDigits(s, p + 7);
        int mi = AsciiNumbers.twoDigits(s, p + 10);
        int se = AsciiNumbers.twoDigits(s, p + 13);
        if (d < 1 || d > 31 || s.charAt(p + 6) != ' ' || s.charAt(p + 9) != ':' || s.charAt(p + 12) != ':'
                || !CivilTime.isValidTime(h, mi, se) || s.charAt(p + 15) != ' '
                || d > CivilTime.daysInMonth(2000, m)) {
            return false;
        }
        hasTimestamp = true;
        month = m;
        day = d;
        hour = h;
        minute = mi;
        second = se;
        p += 16;
        skipBlanks();
        return true;
    }

    private int digit(int at) {
        char c = s.charAt(at);
        return AsciiNumbers.isDigit(c) ? c - '0' : -1;
    }

    /** RFC 3339 / ISO-8601, with {@code T} or (console) a space between date and time. */
    private boolean isoTimestamp() {
        if (n - p < 19 || !AsciiNumbers.isDigit(s.charAt(p)) || s.charAt(p + 4) != '-') {
            return false;
        }
        int end = s.charAt(p + 10) == ' ' ? consoleTimeEnd(p + 11) : tokenEnd(p);
        IsoInstants.Parsed parsed = IsoInstants.parse(s, p, end, java.time.ZoneOffset.UTC);
        if (parsed == null) {
            return false;
        }
        // keep the written fields; the zone is applied later by SyslogPrefix
        hasTimestamp = true;
        year = (int) AsciiNumbers.parseLong(s, p, p + 4);
        month = AsciiNumbers.twoDigits(s, p + 5);
        day = AsciiNumbers.twoDigits(s, p + 8);
        hour = AsciiNumbers.twoDigits(s, p + 11);
        minute = AsciiNumbers.twoDigits(s, p + 14);
        second = AsciiNumbers.twoDigits(s, p + 17);
        nanos = parsed.instant().getNano();
        offsetSeconds = parsed.offset() == null ? null : parsed.offset().getTotalSeconds();
        if (offsetSeconds != null) {
            // the parsed instant already moved by the offset; rebuild the local fields from it
            // ofEpochSecond, not ofInstant: ofInstant asks the offset for its ZoneRules, a new object on every line
            java.time.LocalDateTime local = java.time.LocalDateTime.ofEpochSecond(parsed.instant().getEpochSecond(),
                    parsed.instant().getNano(), java.time.ZoneOffset.ofTotalSeconds(offsetSeconds));
            year = local.getYear();
            month = local.getMonthValue();
            day = local.getDayOfMonth();
            hour = local.getHour();
            minute = local.getMinute();
            second = local.getSecond();
        }
        p = end;
        skipBlanks();
        return true;
    }

    private int consoleTimeEnd(int from) {
        int i = from;
        while (i < n && (AsciiNumbers.isDigit(s.charAt(i)) || s.charAt(i) == ':' || s.charAt(i) == '.')) {
            i++;
        }
        return i;
    }

    /** A relay's {@code local2.info} between its own timestamp and the sender's. */
    private boolean relayFacility() {
        int end = tokenEnd(p);
        int dot = HostPort.indexOf(s, '.', p, end);
        if (dot <= p || dot == end - 1) {
            return false;
        }
        for (int i = p; i < end; i++) {
            char c = s.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !AsciiNumbers.isDigit(c) && c != '.') {
                return false;
            }
        }
        // only a real facility name followed by a date: a host like "web.1" before a tag like "0:" is a host
        if (!FACILITIES.contains(s.substring(p, dot)) || end + 5 >= n || s.charAt(end + 5) != '-') {
            return false;
        }
        for (int i = end + 1; i < end + 5; i++) {
            if (!AsciiNumbers.isDigit(s.charAt(i))) {
                return false;
            }
        }
        p = end;
        skipBlanks();
        return true;
    }

    private static final java.util.Set<String> FACILITIES = java.util.Set.of("kern", "user", "mail", "daemon", "auth",
            "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp", "ntp", "security", "console", "local0", "local1",
            "local2", "local3", "local4", "local5", "local6", "local7");

    private void hostAndTag(boolean rfc5424) {
        int end = tokenEnd(p);
        if (end > p && s.charAt(end - 1) == ':') {
            tag(p, end);
            return;
        }
        boolean tabSeparated = end < n && s.charAt(end) == '\t';
        if (tabSeparated && looksLikeTag(p, end)) {
            tag(p, end);
            return;
        }
        // RFC 5424's NILVALUE: HAProxy sends it when no hostname is configured (no log-send-hostname)
        host = rfc5424 && end == p + 1 && s.charAt(p) == '-' ? null : s.substring(p, end);
        p = end;
        skipBlanks();
        if (p >= n || s.charAt(p) == '[') {
            return;
        }
        end = tokenEnd(p);
        if (end > p && s.charAt(end - 1) == ':') {
            tag(p, end);
            return;
        }
        // RFC 5424 APP-NAME PROCID MSGID (relays write it without the PRI/VERSION too)
        int appEnd = end;
        int procStart = appEnd < n ? appEnd + 1 : appEnd;
        int procEnd = tokenEnd(procStart);
        int msgStart = procEnd < n ? procEnd + 1 : procEnd;
        int msgEnd = tokenEnd(msgStart);
        if (rfc5424 || (procEnd > procStart && msgEnd > msgStart
                && (isNumberOrNil(procStart, procEnd)))) {
            program = s.substring(p, appEnd);
            if (procEnd - procStart > 0) {
                long id = AsciiNumbers.parseBounded(s, procStart, procEnd, 0, Integer.MAX_VALUE);
                pid = id == AsciiNumbers.INVALID ? null : (int) id;
            }
            p = msgEnd;
            skipBlanks();
        } else if (looksLikeTag(p, end)) {
            tag(p, end);
        }
    }

    private boolean isNumberOrNil(int from, int to) {
        return (to - from == 1 && s.charAt(from) == '-')
                || AsciiNumbers.parseLong(s, from, to) != AsciiNumbers.INVALID;
    }

    /** {@code haproxy[14389]:} (or without the colon when tab-separated) or {@code haproxy:}. */
    private boolean looksLikeTag(int from, int to) {
        int open = HostPort.indexOf(s, '[', from, to);
        if (open < 0) {
            return s.charAt(to - 1) == ':';
        }
        int close = HostPort.indexOf(s, ']', open, to);
        return close > open + 1 && AsciiNumbers.parseLong(s, open + 1, close) != AsciiNumbers.INVALID;
    }

    private void tag(int from, int to) {
        int end = s.charAt(to - 1) == ':' ? to - 1 : to;
        int open = HostPort.indexOf(s, '[', from, end);
        if (open > from) {
            // nearly every line says "haproxy": share one String instead of copying it per line
            program = open - from == 7 && s.startsWith("haproxy", from) ? "haproxy" : s.substring(from, open);
            int close = HostPort.indexOf(s, ']', open, end);
            if (close > open + 1) {
                long id = AsciiNumbers.parseBounded(s, open + 1, close, 0, Integer.MAX_VALUE);
                pid = id == AsciiNumbers.INVALID ? null : (int) id;
            }
        } else {
            program = s.substring(from, end);
        }
        p = to;
        skipBlanks();
    }

    /** {@code haproxy[674]: } with nothing before it (syslog header stripped by the shipper). */
    private void bareTag() {
        int end = tokenEnd(p);
        if (end > p + 1 && end < n && s.charAt(end - 1) == ':' && looksLikeTag(p, end)
                && HostPort.indexOf(s, '[', p, end) > p) {
            recognised = true;
            tag(p, end);
        }
    }

    /** {@code [WARNING] 256/135735 (9978) :} or {@code [ALERT]    (301) :} (HAProxy's stderr). */
    private void consoleLevel() {
        if (p >= n || s.charAt(p) != '[') {
            return;
        }
        int close = HostPort.indexOf(s, ']', p + 1, Math.min(n, p + 12));
        if (close < p + 2) {
            return;
        }
        for (int i = p + 1; i < close; i++) {
            if (s.charAt(i) < 'A' || s.charAt(i) > 'Z') {
                return;
            }
        }
        int i = close + 1;
        while (i < n && s.charAt(i) == ' ') {
            i++;
        }
        int slash = i + 3;
        if (slash + 7 <= n && s.charAt(slash) == '/' && AsciiNumbers.parseLong(s, i, slash) != AsciiNumbers.INVALID
                && AsciiNumbers.parseLong(s, slash + 1, slash + 7) != AsciiNumbers.INVALID) {
            if (!hasTimestamp) {
                dayOfYear = (int) AsciiNumbers.parseLong(s, i, slash);
                int h = AsciiNumbers.twoDigits(s, slash + 1);
                int mi = AsciiNumbers.twoDigits(s, slash + 3);
                int se = AsciiNumbers.twoDigits(s, slash + 5);
                if (dayOfYear >= 1 && dayOfYear <= 366 && CivilTime.isValidTime(h, mi, se)) {
                    hasTimestamp = true;
                    hour = h;
                    minute = mi;
                    second = se;
                } else {
                    dayOfYear = -1;
                }
            }
            i = slash + 7;
            while (i < n && s.charAt(i) == ' ') {
                i++;
            }
        }
        if (i < n && s.charAt(i) == '(') {
            int pidClose = HostPort.indexOf(s, ')', i + 1, Math.min(n, i + 12));
            if (pidClose > i + 1) {
                long id = AsciiNumbers.parseBounded(s, i + 1, pidClose, 0, Integer.MAX_VALUE);
                if (id != AsciiNumbers.INVALID && pid == null) {
                    pid = (int) id;
                }
                i = pidClose + 1;
            }
        }
        while (i < n && s.charAt(i) == ' ') {
            i++;
        }
        if (i < n && s.charAt(i) == ':') {
            i++;
        }
        recognised = true;
        p = i;
        skipBlanks();
    }

    /** RFC 5424 SD-ELEMENTs ({@code [id k="v"]}, quotes may hold escaped {@code \"} and {@code \]}). */
    private void structuredData() {
        if (p + 1 < n && s.charAt(p) == '-' && s.charAt(p + 1) == ' ' && recognised) {
            p += 2;
            return;
        }
        while (p < n && s.charAt(p) == '[') {
            int idEnd = p + 1;
            while (idEnd < n && s.charAt(idEnd) != ' ' && s.charAt(idEnd) != ']' && s.charAt(idEnd) != '=') {
                idEnd++;
            }
            if (idEnd >= n || s.charAt(idEnd) == '=' || idEnd == p + 1) {
                return;
            }
            // an SD-ID is a name (with '@' for private ones) followed by parameters; this keeps a
            // bracketed address such as [::1]:80 from being taken for one
            boolean privateId = HostPort.indexOf(s, '@', p + 1, idEnd) > 0;
            if (!privateId && s.charAt(idEnd) != ' ') {
                return;
            }
            int i = idEnd;
            boolean inQuotes = false;
            while (i < n) {
                char c = s.charAt(i);
                if (c == '\\' && inQuotes) {
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    inQuotes = !inQuotes;
                } else if (c == ']' && !inQuotes) {
                    break;
                }
                i++;
            }
            if (i >= n) {
                return;
            }
            recognised = true;
            p = i + 1;
            skipBlanks();
        }
    }
}
