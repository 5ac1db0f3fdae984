package io.hcwatch.parse;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import java.time.Instant;
import java.time.ZoneId;

/**
 * HAProxy traffic lines after the prefix: the HTTP format ({@code option httplog}), the TCP format
 * ({@code option tcplog}) and the connection-error format, told apart by their shape:
 * <pre>
 * http:  ci:cp [date] fe be/srv TR/Tw/Tc/Tr/Ta st bytes cc cs tsc ac/fc/bc/sc/rc sq/bq {hr} {hs} "req"
 * tcp:   ci:cp [date] fe be/srv Tw/Tc/Tt bytes ts ac/fc/bc/sc/rc sq/bq
 * error: ci:cp [date] fe/bind: message
 * </pre>
 * Fields may be separated by several spaces; anything after the last known field is ignored
 * (custom formats often append TLS details). One unknown token between server and timers is
 * skipped, as some deployments log the Host there. Single use: one instance per line.
 */
final class HaproxyTrafficLineParser {

    private final String s;
    private final int n;
    private final SyslogPrefix prefix;
    private final ZoneId zone;
    private int p;
    private ParseResult<HaproxyRequest> failure;

    private HaproxyTrafficLineParser(String line, SyslogPrefix prefix, ZoneId zone) {
        this.s = line;
        this.n = line.length();
        this.prefix = prefix;
        this.zone = zone;
        this.p = prefix.bodyStart();
    }

    /** True when the message starts like a traffic line: an address token then {@code " ["}. */
    static boolean looksLikeTraffic(String line, int bodyStart) {
        int sp = line.indexOf(' ', bodyStart);
        return sp > bodyStart && sp + 1 < line.length() && line.charAt(sp + 1) == '['
                && HostPort.lastIndexOf(line, ':', bodyStart, sp) > bodyStart;
    }

    static ParseResult<HaproxyRequest> parse(String line, SyslogPrefix prefix, ZoneId zone) {
        return new HaproxyTrafficLineParser(line, prefix, zone).run();
    }

    private ParseResult<HaproxyRequest> run() {
        int clientEnd = s.indexOf(' ', p);
        String clientIp = null;
        Integer clientPort = null;
        if (clientEnd - p == 1 && s.charAt(p) == '-') {
            // no client address at all (e.g. a custom %ci)
        } else {
            HostPort client = HostPort.parse(s, p, clientEnd);
            if (client == null) {
                return Rejections.reject(RejectReason.BAD_ADDRESS, "client address", s.substring(p, clientEnd),
                        "ip:port, -:port (no address) or unix:n");
            }
            clientIp = client.host().equals("-") ? null : client.host();
            clientPort = client.port();
        }
        p = clientEnd + 2;
        int dateEnd = s.indexOf(']', p);
        Instant accepted = dateEnd < 0 ? null : HaproxyAcceptDate.parse(s, p, dateEnd, zone);
        if (accepted == null) {
            return Rejections.reject(RejectReason.BAD_TIMESTAMP, "accept date",
                    dateEnd < 0 ? s.substring(p) : s.substring(p, dateEnd), "dd/MMM/yyyy:HH:mm:ss.SSS in brackets");
        }
        p = dateEnd + 1;
        int feStart = nextToken();
        int feEnd = tokenEnd(feStart);
        if (feStart >= n) {
            return Rejections.reject(RejectReason.FIELD_COUNT, "frontend", "", "a frontend name after the accept date");
        }
        if (s.charAt(feEnd - 1) == ':') {
            return errorLine(clientIp, clientPort, accepted, feStart, feEnd);
        }
        boolean ssl = s.charAt(feEnd - 1) == '~';
        String frontend = s.substring(feStart, ssl ? feEnd - 1 : feEnd);
        p = feEnd;
        int bsStart = nextToken();
        int bsEnd = tokenEnd(bsStart);
        int slash = HostPort.indexOf(s, '/', bsStart, bsEnd);
        if (slash <= bsStart || slash == bsEnd - 1) {
            return Rejections.reject(RejectReason.BAD_FIELD, "backend/server", s.substring(bsStart, bsEnd),
                    "backend/server (e.g. static/srv1, app/<NOSRV>)");
        }
        String backend = s.substring(bsStart, slash);
        String server = s.substring(slash + 1, bsEnd);
        p = bsEnd;
        int tStart = nextToken();
        int tEnd = tokenEnd(tStart);
        if (tStart < n && !startsLikeTimer(s.charAt(tStart))) {
            p = tEnd;
            tStart = nextToken();
            tEnd = tokenEnd(tStart);
        }
        int slashes = 0;
        for (int i = tStart; i < tEnd; i++) {
            if (s.charAt(i) == '/') {
                slashes++;
            }
        }
        if (slashes != 4 && slashes != 2) {
            return Rejections.reject(RejectReason.BAD_FIELD, "timers", s.substring(tStart, tEnd),
                    "TR/Tw/Tc/Tr/Ta (http) or Tw/Tc/Tt (tcp)");
        }
        boolean http = slashes == 4;
        Integer[] timers = new Integer[5];
        boolean logasap = parseTimers(tStart, tEnd, timers, http ? 5 : 3);
        p = tEnd;
        Integer status = null;
        if (http) {
            status = intOrMinusOne("status code", 0, 999);
        }
        int bytesStart = nextToken();
        boolean bytesLogasap = bytesStart < n && s.charAt(bytesStart) == '+';
        if (bytesLogasap) {
            p = bytesStart + 1;
        }
        Long bytes = longField("bytes read");
        String requestCookie = null;
        String responseCookie = null;
        if (http) {
            requestCookie = word(true);
            responseCookie = word(true);
        }
        String termination = word(false);
        int[] conns = new int[5];
        boolean redispatched = slashList("actconn/feconn/beconn/srv_conn/retries", conns, 5);
        int[] queues = new int[2];
        slashList("srv_queue/backend_queue", queues, 2);
        if (failure != null) {
            return failure;
        }
        String requestHeaders = null;
        String responseHeaders = null;
        String[] request = new String[3];
        if (http) {
            requestHeaders = braces();
            if (requestHeaders != null) {
                responseHeaders = braces();
            }
            requestLine(request);
        }
        HaproxyRequest record = new HaproxyRequest(http ? HaproxyLogFormat.http : HaproxyLogFormat.tcp, accepted,
                prefix.host(), prefix.program(), prefix.pid(), clientIp, clientPort, frontend, ssl, null,
                backend, server,
                http ? timers[0] : null, http ? timers[1] : timers[0], http ? timers[2] : timers[1],
                http ? timers[3] : null, http ? timers[4] : timers[2], logasap,
                status, bytes, bytesLogasap, requestCookie, responseCookie, termination,
                conns[0], conns[1], conns[2], conns[3], conns[4], redispatched, queues[0], queues[1],
                requestHeaders, responseHeaders, request[0], request[1], request[2], null);
        return ParseResult.ok(record);
    }

    private ParseResult<HaproxyRequest> errorLine(String clientIp, Integer clientPort, Instant accepted,
                                                  int feStart, int feEnd) {
        int slash = HostPort.indexOf(s, '/', feStart, feEnd - 1);
        if (slash <= feStart) {
            return Rejections.reject(RejectReason.BAD_FIELD, "frontend/bind", s.substring(feStart, feEnd),
                    "frontend/bind: followed by the error message");
        }
        p = feEnd;
        int msgStart = nextToken();
        String message = s.substring(msgStart).strip();
        return ParseResult.ok(new HaproxyRequest(HaproxyLogFormat.error, accepted, prefix.host(),
                prefix.program(), prefix.pid(), clientIp, clientPort, s.substring(feStart, slash), false,
                s.substring(slash + 1, feEnd - 1), null, null, null, null, null, null, null, false, null, null,
                false, null, null, null, null, null, null, null, null, false, null, null, null, null, null, null,
                null, message.isEmpty() ? null : message));
    }

    private static boolean startsLikeTimer(char c) {
        return AsciiNumbers.isDigit(c) || c == '-' || c == '+';
    }

    private int nextToken() {
        while (p < n && s.charAt(p) == ' ') {
            p++;
        }
        return p;
    }

    private int tokenEnd(int from) {
        int i = from;
        while (i < n && s.charAt(i) != ' ') {
            i++;
        }
        return i;
    }

    /** The next space-separated word; with {@code dashIsNull}, HAProxy's "-" is null and costs no copy. */
    private String word(boolean dashIsNull) {
        int start = nextToken();
        int end = tokenEnd(start);
        p = end;
        if (end == start) {
            fail(RejectReason.FIELD_COUNT, "field at offset " + start, "", "more fields");
            return null;
        }
        return dashIsNull && end - start == 1 && s.charAt(start) == '-' ? null : s.substring(start, end);
    }

    private void fail(String reason, String field, String held, String expected) {
        if (failure == null) {
            failure = Rejections.reject(reason, field, held, expected);
        }
    }

    /** -1 means the phase was never reached; a leading + (option logasap) only on the total. */
    private boolean parseTimers(int from, int to, Integer[] out, int count) {
        boolean logasap = false;
        int start = from;
        for (int k = 0; k < count; k++) {
            int end = k == count - 1 ? to : HostPort.indexOf(s, '/', start, to);
            int numStart = start;
            if (k == count - 1 && start < end && s.charAt(start) == '+') {
                logasap = true;
                numStart++;
            }
            long v = AsciiNumbers.parseBounded(s, numStart, end, -1, Integer.MAX_VALUE);
            if (v == AsciiNumbers.INVALID) {
                fail(RejectReason.BAD_NUMBER, "timers", s.substring(from, to), "integers or -1 separated by /");
                return false;
            }
            out[k] = v == -1 ? null : (int) v;
            start = end + 1;
        }
        return logasap;
    }

    private Integer intOrMinusOne(String field, long min, long max) {
        int start = nextToken();
        int end = tokenEnd(start);
        p = end;
        long v = AsciiNumbers.parseBounded(s, start, end, -1, max);
        if (v == AsciiNumbers.INVALID || (v < min && v != -1)) {
            fail(RejectReason.BAD_NUMBER, field, s.substring(start, end), "an integer or -1");
            return null;
        }
        return v == -1 ? null : (int) v;
    }

    private Long longField(String field) {
        int start = nextToken();
        int end = tokenEnd(start);
        p = end;
        long v = AsciiNumbers.parseLong(s, start, end);
        if (v == AsciiNumbers.INVALID || v < 0) {
            fail(RejectReason.BAD_NUMBER, field, s.substring(start, end), "a non-negative integer");
            return null;
        }
        return v;
    }

    /** n/n/... counters; a leading + on the last one (retries) means the request was redispatched. */
    private boolean slashList(String field, int[] out, int count) {
        int start = nextToken();
        int end = tokenEnd(start);
        p = end;
        boolean plus = false;
        int from = start;
        for (int k = 0; k < count; k++) {
            int to = k == count - 1 ? end : HostPort.indexOf(s, '/', from, end);
            if (to < 0) {
                fail(RejectReason.BAD_FIELD, field, s.substring(start, end), count + " integers separated by /");
                return false;
            }
            int numStart = from;
            if (k == count - 1 && from < to && s.charAt(from) == '+') {
                plus = true;
                numStart++;
            }
            long v = AsciiNumbers.parseBounded(s, numStart, to, 0, Integer.MAX_VALUE);
            if (v == AsciiNumbers.INVALID) {
                fail(RejectReason.BAD_NUMBER, field, s.substring(start, end), count + " integers separated by /");
                return false;
            }
            out[k] = (int) v;
            from = to + 1;
        }
        return plus;
    }

    /** A captured-headers block {@code {a|b}}; null when the next field is not one. */
    private String braces() {
        int start = nextToken();
        if (start >= n || s.charAt(start) != '{') {
            return null;
        }
        int close = s.indexOf('}', start + 1);
        if (close < 0) {
            p = n;
            return s.substring(start + 1);
        }
        p = close + 1;
        return s.substring(start + 1, close);
    }

    /**
     * The quoted request line; a line cut by the syslog size limit has no closing quote and keeps
     * what is there. Method and version are the first and last words, the URI is what lies between.
     */
    private void requestLine(String[] out) {
        int start = nextToken();
        if (start >= n || s.charAt(start) != '"') {
            return;
        }
        int close = s.indexOf('"', start + 1);
        p = close < 0 ? n : close + 1;
        HttpRequestLine.split(s, start + 1, close < 0 ? n : close, out);
    }
}
