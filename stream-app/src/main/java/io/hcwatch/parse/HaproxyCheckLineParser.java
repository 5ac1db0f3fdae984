package io.hcwatch.parse;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.BackendEventKind;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.Decoded;
import java.time.Instant;

/**
 * HAProxy's health and state messages (grammar of src/check.c and src/server.c):
 * <pre>
 * Health check for [backup ]server BE/SRV succeeded|failed[, reason: R][, code: N][, info: "I"]
 *     [, check duration: Nms], status: X/Y UP|DOWN|DRAIN.
 * Server BE/SRV is DOWN|UP|going DOWN for maintenance[, reason: R]...[, check duration: Nms].
 *     N active and M backup servers left|online. ...
 * backend BE has no server available!      (stderr: backend 'BE' has ...)
 * </pre>
 * {@code status: X/Y}: while UP, X is how many more failures take the server DOWN and Y is
 * {@code fall}; while DOWN, X is the successes so far and Y is {@code rise}. So Y fills the check
 * config's unhealthy threshold (UP) or healthy threshold (DOWN).
 */
final class HaproxyCheckLineParser {

    private static final String HEALTH = "Health check for ";
    private static final String AGENT = "Agent check for ";

    private HaproxyCheckLineParser() {
    }

    /** @return null when the message is none of the check, state or no-server messages */
    static ParseResult<Decoded> parse(String line, SyslogPrefix prefix, Instant ts) {
        String body = line.substring(prefix.bodyStart()).strip();
        if (body.startsWith(HEALTH) || body.startsWith(AGENT)) {
            return checkResult(body, prefix, ts);
        }
        if (body.startsWith("Server ") || body.startsWith("Backup Server ")) {
            return serverState(body, prefix, ts);
        }
        if (body.endsWith(" has no server available!")) {
            return noServer(body, prefix, ts);
        }
        return null;
    }

    private static ParseResult<Decoded> checkResult(String body, SyslogPrefix prefix, Instant ts) {
        int at = body.startsWith(HEALTH) ? HEALTH.length() : AGENT.length();
        if (body.startsWith("backup ", at)) {
            at += "backup ".length();
        }
        if (!body.startsWith("server ", at)) {
            return reject(body, "'server BE/SRV' after 'check for'");
        }
        at += "server ".length();
        int nameEnd = body.indexOf(' ', at);
        String[] names = nameEnd < 0 ? null : backendServer(body.substring(at, nameEnd));
        if (names == null) {
            return reject(body, "the checked server as backend/server");
        }
        String rest = body.substring(nameEnd + 1);
        boolean passed;
        if (rest.startsWith("succeeded") || rest.startsWith("conditionally succeeded")) {
            passed = true;
        } else if (rest.startsWith("failed")) {
            passed = false;
        } else {
            return reject(body, "succeeded or failed after the server name");
        }
        int statusAt = rest.lastIndexOf(", status: ");
        if (statusAt < 0) {
            return reject(body, "', status: X/Y UP|DOWN' at the end of a health check message");
        }
        String status = trimDot(rest.substring(statusAt + ", status: ".length()));
        int slash = status.indexOf('/');
        int space = status.indexOf(' ');
        if (slash <= 0 || space <= slash) {
            return reject(body, "status as X/Y UP|DOWN|DRAIN");
        }
        long y = AsciiNumbers.parseBounded(status, slash + 1, space, 0, 1_000_000);
        long x = AsciiNumbers.parseBounded(status, 0, slash, 0, 1_000_000);
        TargetState state = switch (status.substring(space + 1)) {
            case "UP" -> TargetState.healthy;
            case "DRAIN" -> TargetState.draining;
            case "DOWN" -> TargetState.unhealthy;
            default -> null;
        };
        if (x == AsciiNumbers.INVALID || y == AsciiNumbers.INVALID || state == null) {
            return reject(body, "status as X/Y UP|DOWN|DRAIN");
        }
        Details d = Details.of(rest.substring(0, statusAt));
        CheckOutcome outcome = passed ? CheckOutcome.pass : HaproxyCheckReasons.outcomeOf(d.reason);
        CheckConfig check = state == TargetState.unhealthy
                ? new CheckConfig(null, null, null, (int) y, null)
                : new CheckConfig(null, null, null, null, (int) y);
        return ParseResult.ok(new Check(result(ts, prefix, names, outcome, d, state, check, null)));
    }

    private static ParseResult<Decoded> serverState(String body, SyslogPrefix prefix, Instant ts) {
        int at = body.indexOf("Server ") + "Server ".length();
        int nameEnd = body.indexOf(' ', at);
        String[] names = nameEnd < 0 ? null : backendServer(body.substring(at, nameEnd));
        if (names == null) {
            return reject(body, "the server as backend/server after 'Server'");
        }
        String rest = body.substring(nameEnd + 1);
        TargetState state;
        CheckOutcome outcome;
        if (rest.startsWith("is going DOWN for maintenance") || rest.startsWith("is DOWN for maintenance")
                || rest.startsWith("was DOWN and now enters maintenance")
                || rest.startsWith("was UP and now enters maintenance")) {
            state = TargetState.unused;
            outcome = CheckOutcome.other;
        } else if (rest.startsWith("is DOWN")) {
            state = TargetState.unhealthy;
            outcome = null;
        } else if (rest.startsWith("is UP") || rest.startsWith("is going UP")) {
            state = TargetState.healthy;
            outcome = CheckOutcome.pass;
        } else if (rest.startsWith("is stopping") || rest.contains("enters drain mode")) {
            state = TargetState.draining;
            outcome = CheckOutcome.other;
        } else {
            return ParseResult.skipped("server_admin");
        }
        String head = beforeServerCounts(rest);
        Details d = Details.of(head);
        if (outcome == null) {
            outcome = d.reason == null ? CheckOutcome.other : HaproxyCheckReasons.outcomeOf(d.reason);
        }
        Integer active = activeServers(rest);
        return ParseResult.ok(new Check(result(ts, prefix, names, outcome, d, state, null, active)));
    }

    /** The message up to ". N active and ...", or all of it (minus a final dot) when that is absent. */
    private static String beforeServerCounts(String rest) {
        int at = rest.indexOf(" active and ");
        if (at < 0) {
            return trimDot(rest);
        }
        int i = at;
        while (i > 0 && AsciiNumbers.isDigit(rest.charAt(i - 1))) {
            i--;
        }
        if (i >= 2 && rest.charAt(i - 1) == ' ' && rest.charAt(i - 2) == '.') {
            return rest.substring(0, i - 2);
        }
        return trimDot(rest.substring(0, i).strip());
    }

    /** N in "N active and M backup servers left|online". */
    private static Integer activeServers(String rest) {
        int at = rest.indexOf(" active and ");
        if (at < 0) {
            return null;
        }
        int start = at;
        while (start > 0 && AsciiNumbers.isDigit(rest.charAt(start - 1))) {
            start--;
        }
        long n = AsciiNumbers.parseBounded(rest, start, at, 0, Integer.MAX_VALUE);
        return n == AsciiNumbers.INVALID ? null : (int) n;
    }

    private static ParseResult<Decoded> noServer(String body, SyslogPrefix prefix, Instant ts) {
        int sp = body.indexOf(' ');
        int end = body.length() - " has no server available!".length();
        if (sp < 0 || sp >= end) {
            return reject(body, "'backend NAME has no server available!'");
        }
        String name = body.substring(sp + 1, end);
        if (name.length() >= 2 && name.startsWith("'") && name.endsWith("'")) {
            name = name.substring(1, name.length() - 1);
        }
        if (name.isEmpty() || name.indexOf(' ') >= 0) {
            return reject(body, "one backend name before 'has no server available!'");
        }
        return ParseResult.ok(new BackendNotice(new BackendEvent(ts, "haproxy", prefix.host(), name,
                BackendEventKind.no_server_available, body)));
    }

    private static HealthCheckResult result(Instant ts, SyslogPrefix prefix, String[] names, CheckOutcome outcome,
                                            Details d, TargetState state, CheckConfig check, Integer active) {
        return new HealthCheckResult(ts, "haproxy", prefix.host(), names[0], names[1], null, null, null, outcome,
                d.durationMs, d.code, state, d.reason, check, null, active);
    }

    /** backend/server split at the first slash (names may hold ':' but not '/'). */
    private static String[] backendServer(String token) {
        int slash = token.indexOf('/');
        if (slash <= 0 || slash == token.length() - 1) {
            return null;
        }
        return new String[] {token.substring(0, slash), token.substring(slash + 1)};
    }

    private static String trimDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static ParseResult<Decoded> reject(String body, String expected) {
        return Rejections.reject(RejectReason.BAD_FIELD, "HAProxy check/state message", body, expected);
    }

    /**
     * The ", reason: R, code: N, info: "I", check duration: Nms" part of a message. The pieces come
     * in that order, each optional; the info text is free and may itself hold ", ".
     */
    private static final class Details {
        String reason;
        Integer code;
        Integer durationMs;

        static Details of(String text) {
            Details d = new Details();
            int upTo = text.length();
            int durationAt = text.lastIndexOf(", check duration: ");
            if (durationAt >= 0) {
                String duration = text.substring(durationAt + ", check duration: ".length()).strip();
                if (duration.endsWith("ms")) {
                    long ms = AsciiNumbers.parseBounded(duration, 0, duration.length() - 2, 0, Integer.MAX_VALUE);
                    d.durationMs = ms == AsciiNumbers.INVALID ? null : (int) ms;
                }
                upTo = durationAt;
            }
            int infoAt = indexBefore(text, ", info: \"", upTo);
            if (infoAt >= 0) {
                upTo = infoAt;
            }
            int codeAt = indexBefore(text, ", code: ", upTo);
            if (codeAt >= 0) {
                String code = text.substring(codeAt + ", code: ".length(), upTo).strip();
                long c = AsciiNumbers.parseBounded(code, 0, code.length(), 0, 999);
                d.code = c == AsciiNumbers.INVALID ? null : (int) c;
                upTo = codeAt;
            }
            int reasonAt = indexBefore(text, ", reason: ", upTo);
            if (reasonAt >= 0) {
                String reason = text.substring(reasonAt + ", reason: ".length(), upTo).strip();
                d.reason = reason.isEmpty() ? null : reason;
            }
            return d;
        }

        private static int indexBefore(String text, String key, int limit) {
            int at = text.indexOf(key);
            return at >= 0 && at < limit ? at : -1;
        }
    }
}
