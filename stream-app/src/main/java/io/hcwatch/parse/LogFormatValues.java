package io.hcwatch.parse;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The values one line gives a compiled log-format's fields, read from their text, and the
 * {@link HaproxyRequest} they make. Every field sets its value (null included) each time it is
 * read, so a value read on a way through the line that was then given up is always overwritten.
 * One instance per line.
 */
final class LogFormatValues {

    /** Dates, best first: HAProxy's accept date (what the record's ts is), then the request's. */
    private static final int DATES = 7;

    private final ZoneId zone;
    String clientIp;
    Integer clientPort;
    String frontend;
    boolean ssl;
    String backend;
    String server;
    String host;
    Integer pid;
    private final Instant[] dates = new Instant[DATES];
    /** 9999-12-31T23:59:59Z: the last second the logged dates can name (Instant refuses far less). */
    private static final long LAST_SECOND = 253_402_300_799L;
    private Long acceptSeconds;
    private Integer acceptMillis;
    Integer tr;
    Integer tw;
    Integer tc;
    Integer trServer;
    Integer ta;
    boolean taLogasap;
    Integer tt;
    boolean ttLogasap;
    Integer status;
    Long bytes;
    boolean bytesLogasap;
    String requestCookie;
    String responseCookie;
    String termination;
    Integer actconn;
    Integer feconn;
    Integer beconn;
    Integer srvConn;
    Integer retries;
    boolean redispatched;
    Integer srvQueue;
    Integer backendQueue;
    String requestHeaders;
    String responseHeaders;
    String method;
    String uri;
    String version;

    LogFormatValues(ZoneId zone) {
        this.zone = zone;
    }

    /**
     * Reads one field's value from {@code s[from, to)}; null {@code s} means the field is absent
     * (not in a JSON line, or after the point where a cut line ends).
     *
     * @return null when the value fits the field, else what was expected
     */
    String set(LogFormatNode field, CharSequence s, int from, int to) {
        LogFormatAlias alias = field.alias();
        boolean absent = s == null || (to - from == 1 && s.charAt(from) == '-') || from == to;
        boolean hex = field.hex();
        switch (alias) {
            case CLIENT_IP -> {
                if (s != null && from == to) {
                    return "an IP address or -";
                }
                clientIp = absent ? null : address(s, from, to, hex);
            }
            case CLIENT_PORT -> {
                clientPort = absent ? null : intIn(s, from, to, hex, 0, 65_535);
                if (!absent && clientPort == null) {
                    return "a port number";
                }
            }
            case FRONTEND_PORT, BACKEND_PORT, SERVER_PORT -> {
                if (!absent && intIn(s, from, to, hex, 0, 65_535) == null) {
                    return "a port number";
                }
            }
            case FRONTEND, FRONTEND_TRANSPORT -> {
                boolean tilde = !absent && alias == LogFormatAlias.FRONTEND_TRANSPORT && s.charAt(to - 1) == '~';
                ssl = tilde;
                frontend = s == null || from == to ? null : s.subSequence(from, tilde ? to - 1 : to).toString();
            }
            case BACKEND -> backend = s == null || from == to ? null : s.subSequence(from, to).toString();
            case SERVER -> server = s == null || from == to ? null : s.subSequence(from, to).toString();
            case HOSTNAME -> host = absent ? null : s.subSequence(from, to).toString();
            case PID -> pid = absent ? null : intIn(s, from, to, hex, 0, Integer.MAX_VALUE);
            case ACCEPT_DATE, REQUEST_DATE, ACCEPT_DATE_GMT, ACCEPT_DATE_LOCAL, REQUEST_DATE_GMT, REQUEST_DATE_LOCAL -> {
                Instant t = absent ? null : date(alias, s, from, to);
                dates[rank(alias)] = t;
                if (!absent && t == null) {
                    return alias.shape == LogFormatAlias.Shape.LOCAL_DATE ? "dd/MMM/yyyy:HH:mm:ss.SSS"
                            : "dd/MMM/yyyy:HH:mm:ss +hhmm";
                }
            }
            case ACCEPT_SECONDS -> {
                long v = absent ? AsciiNumbers.INVALID : number(s, from, to, hex);
                acceptSeconds = v == AsciiNumbers.INVALID || v < 0 || v > LAST_SECOND ? null : v;
                if (!absent && acceptSeconds == null) {
                    return "seconds since 1970, up to the end of year 9999";
                }
            }
            case ACCEPT_MILLIS -> {
                acceptMillis = absent ? null : intIn(s, from, to, hex, 0, 999);
                if (!absent && acceptMillis == null) {
                    return "milliseconds 000 to 999";
                }
            }
            case TIME_REQUEST, TIME_WAIT, TIME_CONNECT, TIME_RESPONSE, TIME_ACTIVE, TIME_TOTAL, TIME_HANDSHAKE,
                 TIME_IDLE, TIME_QUEUE_REQUEST -> {
                return timer(alias, s, from, to, absent, hex);
            }
            case STATUS -> {
                long v = absent ? -1 : number(s, from, to, hex);
                status = v == -1 ? null : v < 0 || v > 999 ? null : (int) v;
                if (v != -1 && status == null) {
                    return "an HTTP status or -1";
                }
            }
            case BYTES_READ -> {
                boolean plus = !absent && s.charAt(from) == '+';
                long v = absent ? AsciiNumbers.INVALID : number(s, plus ? from + 1 : from, to, hex);
                bytesLogasap = plus;
                bytes = v == AsciiNumbers.INVALID || v < 0 ? null : v;
                if (!absent && bytes == null) {
                    return "a byte count";
                }
            }
            case BYTES_UPLOADED, REQUEST_COUNTER, LOG_COUNTER -> {
                if (!absent && number(s, from, to, hex) == AsciiNumbers.INVALID) {
                    return "an integer";
                }
            }
            case REQUEST_COOKIE -> requestCookie = absent ? null : s.subSequence(from, to).toString();
            case RESPONSE_COOKIE -> responseCookie = absent ? null : s.subSequence(from, to).toString();
            case TERMINATION, TERMINATION_COOKIE -> termination = s == null || from == to ? null : s.subSequence(from, to).toString();
            case ACTCONN, FECONN, BECONN, SRV_CONN, RETRIES, SRV_QUEUE, BACKEND_QUEUE -> {
                return count(alias, s, from, to, absent, hex);
            }
            case REQUEST_HEADERS -> requestHeaders = braces(s, from, to);
            case RESPONSE_HEADERS -> responseHeaders = braces(s, from, to);
            case REQUEST_LINE -> {
                String[] parts = new String[3];
                if (s != null) {
                    HttpRequestLine.split(s, from, to, parts);
                }
                method = parts[0];
                uri = parts[1];
                version = parts[2];
            }
            case METHOD -> method = absent ? null : s.subSequence(from, to).toString();
            case URI -> uri = absent ? null : s.subSequence(from, to).toString();
            case VERSION -> version = absent ? null : s.subSequence(from, to).toString();
            default -> {
                // logged, but hcwatch keeps nothing of it
            }
        }
        return null;
    }

    private String timer(LogFormatAlias alias, CharSequence s, int from, int to, boolean absent, boolean hex) {
        boolean total = alias == LogFormatAlias.TIME_ACTIVE || alias == LogFormatAlias.TIME_TOTAL;
        boolean plus = !absent && total && s.charAt(from) == '+';
        long v = absent ? -1 : number(s, plus ? from + 1 : from, to, hex);
        if (v < -1 || v > Integer.MAX_VALUE) {
            return "milliseconds or -1";
        }
        Integer ms = v == -1 ? null : (int) v;
        switch (alias) {
            case TIME_REQUEST -> tr = ms;
            case TIME_WAIT -> tw = ms;
            case TIME_CONNECT -> tc = ms;
            case TIME_RESPONSE -> trServer = ms;
            case TIME_ACTIVE -> {
                ta = ms;
                taLogasap = plus;
            }
            case TIME_TOTAL -> {
                tt = ms;
                ttLogasap = plus;
            }
            default -> {
                // Th, Ti, Tq: checked, not kept
            }
        }
        return null;
    }

    private String count(LogFormatAlias alias, CharSequence s, int from, int to, boolean absent, boolean hex) {
        boolean plus = !absent && alias == LogFormatAlias.RETRIES && s.charAt(from) == '+';
        long v = absent ? AsciiNumbers.INVALID : number(s, plus ? from + 1 : from, to, hex);
        Integer c = v == AsciiNumbers.INVALID || v < 0 || v > Integer.MAX_VALUE ? null : (int) v;
        if (!absent && c == null) {
            return "a non-negative integer";
        }
        switch (alias) {
            case ACTCONN -> actconn = c;
            case FECONN -> feconn = c;
            case BECONN -> beconn = c;
            case SRV_CONN -> srvConn = c;
            case RETRIES -> {
                retries = c;
                redispatched = plus;
            }
            case SRV_QUEUE -> srvQueue = c;
            default -> backendQueue = c;
        }
        return null;
    }

    private static int rank(LogFormatAlias date) {
        return switch (date) {
            case ACCEPT_DATE -> 0;
            case ACCEPT_DATE_GMT -> 2;
            case ACCEPT_DATE_LOCAL -> 3;
            case REQUEST_DATE -> 4;
            case REQUEST_DATE_LOCAL -> 5;
            default -> 6;
        };
    }

    private Instant date(LogFormatAlias alias, CharSequence s, int from, int to) {
        if (alias.shape == LogFormatAlias.Shape.LOCAL_DATE) {
            return HaproxyAcceptDate.parse(s, from, to, zone);
        }
        if (to - from != 26 || s.charAt(from + 20) != ' ' || (s.charAt(from + 21) != '+' && s.charAt(from + 21) != '-')) {
            return null;
        }
        long hours = AsciiNumbers.parseBounded(s, from + 22, from + 24, 0, 18);
        long minutes = AsciiNumbers.parseBounded(s, from + 24, from + 26, 0, 59);
        if (hours == AsciiNumbers.INVALID || minutes == AsciiNumbers.INVALID) {
            return null;
        }
        int offset = (int) (hours * 3600 + minutes * 60) * (s.charAt(from + 21) == '-' ? -1 : 1);
        return HaproxyAcceptDate.parse(s, from, from + 20, ZoneOffset.ofTotalSeconds(offset));
    }

    private static String braces(CharSequence s, int from, int to) {
        if (s == null || from == to) {
            return null;
        }
        int a = s.charAt(from) == '{' ? from + 1 : from;
        int b = to > a && s.charAt(to - 1) == '}' ? to - 1 : to;
        return s.subSequence(a, b).toString();
    }

    /** HAProxy writes an address as hex (+X) as 8 digits for IPv4; other forms are kept as written. */
    private static String address(CharSequence s, int from, int to, boolean hex) {
        if (hex && to - from == 8) {
            long v = parseHex(s, from, to);
            if (v != AsciiNumbers.INVALID) {
                return (v >> 24) + "." + ((v >> 16) & 0xff) + "." + ((v >> 8) & 0xff) + "." + (v & 0xff);
            }
        }
        if (s.charAt(from) == '[' && s.charAt(to - 1) == ']') {
            return s.subSequence(from + 1, to - 1).toString();
        }
        return s.subSequence(from, to).toString();
    }

    private static Integer intIn(CharSequence s, int from, int to, boolean hex, long min, long max) {
        long v = number(s, from, to, hex);
        return v == AsciiNumbers.INVALID || v < min || v > max ? null : (int) v;
    }

    private static long number(CharSequence s, int from, int to, boolean hex) {
        if (!hex || (to - from == 2 && s.charAt(from) == '-' && s.charAt(from + 1) == '1')) {
            return AsciiNumbers.parseLong(s, from, to);
        }
        return parseHex(s, from, to);
    }

    private static long parseHex(CharSequence s, int from, int to) {
        if (to - from < 1 || to - from > 15) {
            return AsciiNumbers.INVALID;
        }
        long v = 0;
        for (int k = from; k < to; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0) {
                return AsciiNumbers.INVALID;
            }
            v = v * 16 + d;
        }
        return v;
    }

    /** The line's time: the best date the format logs; null when it logs none that was read. */
    Instant time() {
        if (acceptSeconds != null) {
            dates[1] = Instant.ofEpochSecond(acceptSeconds, acceptMillis == null ? 0 : acceptMillis * 1_000_000L);
        } else {
            dates[1] = null;
        }
        for (Instant t : dates) {
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /**
     * @param http        whether the format logs HTTP fields
     * @param activeTimer whether it logs %Ta (else %Tt is the total time)
     */
    HaproxyRequest toRecord(boolean http, boolean activeTimer, Instant ts, SyslogPrefix prefix) {
        Integer total = activeTimer ? ta : tt;
        boolean logasap = activeTimer ? taLogasap : ttLogasap;
        return new HaproxyRequest(http ? HaproxyLogFormat.http : HaproxyLogFormat.tcp, ts,
                prefix.host() != null ? prefix.host() : host, prefix.program(), prefix.pid() != null ? prefix.pid() : pid,
                clientIp, clientPort, frontend, ssl, null, backend, server, tr, tw, tc, trServer, total, logasap,
                status, bytes, bytesLogasap, requestCookie, responseCookie, termination,
                actconn, feconn, beconn, srvConn, retries, redispatched, srvQueue, backendQueue,
                requestHeaders, responseHeaders, method, uri, version, null);
    }
}
