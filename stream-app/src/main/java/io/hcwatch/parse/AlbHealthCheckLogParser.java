package io.hcwatch.parse;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;
import java.util.Locale;

/**
 * Parses one entry of the ALB health-check logs (the S3 log type AWS added on 2025-11-21) into a
 * {@link HealthCheckResult} with source {@code alb}.
 *
 * <p>Entry layout, space-separated like the access and connection logs:
 * {@code type time latency target_addr target_group_id status status_code reason_code}.
 * Where this layout comes from, and what could not be confirmed, is written down in
 * {@code stream-app/PARSERS.md}. Because that confirmation is missing the
 * parser is deliberately tolerant where the docs were silent: fields may be quoted, trailing extra
 * fields are ignored (AWS's rule for its other ELB logs), latency may carry an {@code ms}/{@code s}
 * unit (bare numbers are seconds, as in every other ELB log), and the target address may be an
 * ip:port, an instance id or a Lambda ARN.
 */
public final class AlbHealthCheckLogParser implements LineParser<HealthCheckResult> {

    public static final int FIELDS = 8;
    private static final String[] NAMES = {
        "type", "time", "latency", "target_addr", "target_group_id", "status", "status_code", "reason_code"
    };

    @Override
    public ParseResult<HealthCheckResult> parse(String line) {
        ParseResult<HealthCheckResult> result = parseLine(line);
        if (result instanceof ParseResult.Rejected<HealthCheckResult> rejected) {
            TargetIdentity id = identity(line);
            return id == null ? rejected : rejected.naming(id);
        }
        return result;
    }

    /**
     * The target a rejected line names, when its target address and target group fields can still
     * be read (the line has its fields; another field is what was wrong).
     */
    private static TargetIdentity identity(String line) {
        if (line == null || line.isBlank()) {
            return null;
        }
        String text = line.strip();
        int[] bounds = new int[2 * AlbFieldTokenizer.MAX_FIELDS];
        boolean[] quoted = new boolean[AlbFieldTokenizer.MAX_FIELDS];
        if (AlbFieldTokenizer.tokenize(text, bounds, quoted) < FIELDS) {
            return null;
        }
        String target = text.substring(bounds[6], bounds[7]);
        String group = text.substring(bounds[8], bounds[9]);
        if (absent(target) || absent(group)) {
            return null;
        }
        String name = TargetGroupNames.fromArn(group);
        Instant time = IsoInstants.parse(text, bounds[2], bounds[3]);
        return new TargetIdentity(name != null ? name : group, target, time == null ? -1 : time.toEpochMilli());
    }

    private static ParseResult<HealthCheckResult> parseLine(String line) {
        if (line == null || line.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "line is empty");
        }
        String text = line.strip();
        int[] bounds = new int[2 * AlbFieldTokenizer.MAX_FIELDS];
        boolean[] quoted = new boolean[AlbFieldTokenizer.MAX_FIELDS];
        int count = AlbFieldTokenizer.tokenize(text, bounds, quoted);
        if (count == AlbFieldTokenizer.BAD_QUOTING) {
            return Rejections.reject(RejectReason.BAD_QUOTING, "quoted field at offset " + bounds[0],
                    text, "a closing quote followed by a space or the end of the line");
        }
        if (count < FIELDS) {
            return Rejections.reject(RejectReason.FIELD_COUNT, "line", text,
                    FIELDS + " fields (type time latency target_addr target_group_id status status_code"
                            + " reason_code), found " + count);
        }
        String[] f = new String[FIELDS];
        for (int i = 0; i < FIELDS; i++) {
            f[i] = text.substring(bounds[2 * i], bounds[2 * i + 1]);
        }
        if (!isCheckType(f[0])) {
            return Rejections.reject(RejectReason.UNKNOWN_TYPE, NAMES[0], f[0],
                    "a lowercase health-check protocol such as http or https");
        }
        Instant time = IsoInstants.parse(f[1], 0, f[1].length());
        if (time == null) {
            return Rejections.reject(RejectReason.BAD_TIMESTAMP, NAMES[1], f[1],
                    "an ISO-8601 UTC time like 2025-11-21T10:15:30.123456Z");
        }
        Integer latencyMs = null;
        if (!absent(f[2])) {
            latencyMs = latencyMillis(f[2]);
            if (latencyMs == null) {
                return Rejections.reject(RejectReason.BAD_NUMBER, NAMES[2], f[2],
                        "seconds as a decimal (0.004), or a value with an ms or s unit, or -");
            }
        }
        if (absent(f[3])) {
            return Rejections.reject(RejectReason.BAD_FIELD, NAMES[3], f[3], "the checked target's address");
        }
        HostPort address = HostPort.parse(f[3], 0, f[3].length());
        if (absent(f[4])) {
            return Rejections.reject(RejectReason.BAD_FIELD, NAMES[4], f[4], "the target group's ARN, id or name");
        }
        String targetGroup = TargetGroupNames.fromArn(f[4]);
        String status = absent(f[5]) ? null : f[5];
        Integer statusCode = null;
        if (!absent(f[6])) {
            long code = AsciiNumbers.parseBounded(f[6], 0, f[6].length(), 0, 999);
            if (code == AsciiNumbers.INVALID) {
                return Rejections.reject(RejectReason.BAD_NUMBER, NAMES[6], f[6], "an HTTP status code or -");
            }
            statusCode = (int) code;
        }
        String reason = absent(f[7]) ? null : f[7];
        TargetState state = AlbHealthCheckOutcomes.stateOf(status);
        CheckOutcome outcome = AlbHealthCheckOutcomes.outcomeOf(status, statusCode, reason);
        return ParseResult.ok(HealthCheckResult.newBuilder()
                .setTs(time)
                .setSource("alb")
                .setTargetGroup(targetGroup != null ? targetGroup : f[4])
                .setTarget(f[3])
                .setTargetIp(address == null ? null : address.host())
                .setPort(address == null ? null : address.port())
                .setOutcome(outcome)
                .setLatencyMs(latencyMs)
                .setStatusCode(statusCode)
                .setState(state)
                .setReason(reason)
                .build());
    }

    private static boolean absent(String field) {
        return field.isEmpty() || field.equals("-");
    }

    private static boolean isCheckType(String type) {
        if (type.isEmpty() || type.length() > 16) {
            return false;
        }
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !AsciiNumbers.isDigit(c)) {
                return false;
            }
        }
        return true;
    }

    /** Milliseconds, rounded; null when the text is not a non-negative duration. */
    static Integer latencyMillis(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        double scale = 1000;
        int end = t.length();
        if (t.endsWith("ms")) {
            scale = 1;
            end -= 2;
        } else if (t.endsWith("s")) {
            end -= 1;
        }
        double v = AsciiNumbers.parseDecimal(t, 0, end);
        if (Double.isNaN(v) || v < 0 || v * scale > Integer.MAX_VALUE) {
            return null;
        }
        return (int) Math.round(v * scale);
    }
}
