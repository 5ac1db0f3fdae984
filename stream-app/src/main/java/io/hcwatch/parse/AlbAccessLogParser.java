package io.hcwatch.parse;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.input.AlbTrafficLine;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Function;

/**
 * Parses one ALB access-log line into an {@link AlbRequest}.
 *
 * <p>Accepts every historical layout from the 20-field format of early 2018 to today's 33 fields,
 * and ignores fields beyond the 33rd because AWS appends new fields at the end and tells readers
 * to ignore the ones they do not expect. {@code -} (and {@code -1} for numbers) means absent.
 * Field reference: shared/fixtures/peer-logs/alb/fields.md.
 *
 * <p>Stateless and thread-safe. One pass over the line, no regular expressions.
 */
public final class AlbAccessLogParser implements LineParser<AlbRequest> {

    /** The Feb 2018 layout ends at chosen_cert_arn; anything shorter is not an ALB access log. */
    public static final int MIN_FIELDS = 20;
    /** Fields known today (up to request_transform_status, Aug 2025). */
    public static final int KNOWN_FIELDS = 33;

    @Override
    public ParseResult<AlbRequest> parse(String line) {
        return read(line, Fields::toRequest);
    }

    /**
     * A parser of the same lines into what traffic summaries use: the same checks as
     * {@link #parse(String)}, so a line is rejected by both or neither, for the same reason.
     */
    public LineParser<AlbTrafficLine> traffic() {
        return line -> read(line, Fields::toTraffic);
    }

    private static <T> ParseResult<T> read(String line, Function<Fields, ParseResult<T>> build) {
        if (line == null || line.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "line is empty");
        }
        String text = stripLineEnd(line);
        // the type comes first so that other ELB logs (NLB, Classic, connection logs) are named as such
        int typeEnd = text.indexOf(' ');
        String type = typeOf(text, 0, typeEnd < 0 ? text.length() : typeEnd);
        if (type == null) {
            return Rejections.reject(RejectReason.UNKNOWN_TYPE, "type (field 1)",
                    text.substring(0, typeEnd < 0 ? text.length() : typeEnd), "one of http https h2 grpcs ws wss");
        }
        int[] bounds = new int[2 * AlbFieldTokenizer.MAX_FIELDS];
        boolean[] quoted = new boolean[AlbFieldTokenizer.MAX_FIELDS];
        int count = AlbFieldTokenizer.tokenize(text, bounds, quoted);
        if (count == AlbFieldTokenizer.BAD_QUOTING) {
            int at = bounds[0];
            return Rejections.reject(RejectReason.BAD_QUOTING, "quoted field at offset " + at,
                    text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 20)),
                    "a closing quote followed by a space or the end of the line");
        }
        if (count < MIN_FIELDS) {
            return Rejections.reject(RejectReason.FIELD_COUNT, "line", text,
                    "at least " + MIN_FIELDS + " space-separated fields, found " + count);
        }
        Fields fields = new Fields(text, bounds, Math.min(count, KNOWN_FIELDS), type, count);
        ParseResult<T> failure = fields.check();
        return failure != null ? failure : build.apply(fields);
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return end == line.length() ? line : line.substring(0, end);
    }

    /** The canonical type string, so every record shares the same six String instances. */
    private static String typeOf(String s, int from, int to) {
        int len = to - from;
        if (len == 2 && s.startsWith("h2", from)) {
            return "h2";
        }
        if (len == 2 && s.startsWith("ws", from)) {
            return "ws";
        }
        if (len == 3 && s.startsWith("wss", from)) {
            return "wss";
        }
        if (len == 4 && s.startsWith("http", from)) {
            return "http";
        }
        if (len == 5 && s.startsWith("https", from)) {
            return "https";
        }
        if (len == 5 && s.startsWith("grpcs", from)) {
            return "grpcs";
        }
        return null;
    }

    /** The fields of one line and the first conversion error met, if any. */
    private static final class Fields {
        private static final String[] NAMES = {
            "type", "time", "elb", "client:port", "target:port", "request_processing_time",
            "target_processing_time", "response_processing_time", "elb_status_code",
            "target_status_code", "received_bytes", "sent_bytes", "request", "user_agent", "ssl_cipher",
            "ssl_protocol", "target_group_arn", "trace_id", "domain_name", "chosen_cert_arn",
            "matched_rule_priority", "request_creation_time", "actions_executed", "redirect_url",
            "error_reason", "target:port_list", "target_status_code_list", "classification",
            "classification_reason", "conn_trace_id", "transformed_host", "transformed_uri",
            "request_transform_status"
        };

        private final String line;
        private final int[] bounds;
        private final int count;
        private final String type;
        private final int fieldCount;
        private ParseResult<?> failure;
        private Instant time;
        private HostPort client;
        private HostPort target;
        private Double requestTime;
        private Double targetTime;
        private Double responseTime;
        private Integer elbStatus;
        private Integer targetStatus;
        private Long received;
        private Long sent;
        private Instant created;
        private Integer matchedRulePriority;

        Fields(String line, int[] bounds, int count, String type, int fieldCount) {
            this.line = line;
            this.bounds = bounds;
            this.count = count;
            this.type = type;
            this.fieldCount = fieldCount;
        }

        /** Converts every typed field; the first failure met, or null when the line is good. */
        @SuppressWarnings("unchecked")
        <T> ParseResult<T> check() {
            time = timestamp(1);
            client = address(3);
            target = address(4);
            requestTime = seconds(5);
            targetTime = seconds(6);
            responseTime = seconds(7);
            elbStatus = integer(8, 0, 999);
            targetStatus = integer(9, 0, 999);
            received = count(10);
            sent = count(11);
            created = timestamp(21);
            if (failure == null && (time == null || absent(2))) {
                return Rejections.reject(RejectReason.BAD_FIELD, time == null ? "time (field 2)" : "elb (field 3)",
                        "-", "a value, the field is mandatory");
            }
            if (failure == null) {
                matchedRulePriority = integer(20, -1, 50_000);
            }
            return (ParseResult<T>) failure;
        }

        ParseResult<AlbRequest> toRequest() {
            String targetGroupArn = text(16);
            String[] requestParts = splitRequest(12);
            return ParseResult.ok(new AlbRequest(type, time, text(2),
                    client == null ? null : client.host(), client == null ? null : client.port(),
                    target == null ? null : target.host(), target == null ? null : target.port(),
                    requestTime, targetTime, responseTime, elbStatus, targetStatus, received, sent,
                    text(12), requestParts[0], requestParts[1], requestParts[2],
                    text(13), text(14), text(15), targetGroupArn, TargetGroupNames.fromArn(targetGroupArn),
                    text(17), text(18), text(19), matchedRulePriority,
                    created == null ? null : created.truncatedTo(ChronoUnit.MICROS),
                    text(22), text(23), text(24), text(25), text(26), text(27), text(28), text(29),
                    text(30), text(31), text(32), fieldCount));
        }

        ParseResult<AlbTrafficLine> toTraffic() {
            String[] requestParts = splitRequest(12);
            String targetGroup = absent(16) ? null : TargetGroupNames.fromArn(line, bounds[2 * 16], bounds[2 * 16 + 1]);
            return ParseResult.ok(new AlbTrafficLine(time.toEpochMilli(), text(2), targetGroup,
                    client == null ? null : client.host(), target == null ? null : target.host(),
                    target == null ? -1 : target.port(), targetTime == null ? Double.NaN : targetTime,
                    elbStatus == null ? -1 : elbStatus, requestParts[0], requestParts[1]));
        }

        private boolean absent(int i) {
            if (i >= count) {
                return true;
            }
            int from = bounds[2 * i];
            int to = bounds[2 * i + 1];
            return to - from == 1 && line.charAt(from) == '-';
        }

        private boolean minusOne(int i) {
            int from = bounds[2 * i];
            return bounds[2 * i + 1] - from == 2 && line.charAt(from) == '-' && line.charAt(from + 1) == '1';
        }

        String text(int i) {
            return absent(i) ? null : line.substring(bounds[2 * i], bounds[2 * i + 1]);
        }

        private void fail(String reason, int i, String expected) {
            if (failure == null) {
                failure = Rejections.reject(reason, NAMES[i] + " (field " + (i + 1) + ")",
                        line.substring(bounds[2 * i], bounds[2 * i + 1]), expected);
            }
        }

        Instant timestamp(int i) {
            if (absent(i)) {
                return null;
            }
            Instant t = IsoInstants.parse(line, bounds[2 * i], bounds[2 * i + 1]);
            if (t == null) {
                fail(RejectReason.BAD_TIMESTAMP, i, "an ISO-8601 UTC time like 2018-07-02T22:23:00.186641Z");
            }
            return t;
        }

        HostPort address(int i) {
            if (absent(i)) {
                return null;
            }
            HostPort hp = HostPort.parse(line, bounds[2 * i], bounds[2 * i + 1]);
            if (hp == null) {
                fail(RejectReason.BAD_ADDRESS, i, "ip:port, [ipv6]:port or -");
            }
            return hp;
        }

        Double seconds(int i) {
            if (absent(i) || minusOne(i)) {
                return null;
            }
            double v = AsciiNumbers.parseDecimal(line, bounds[2 * i], bounds[2 * i + 1]);
            if (Double.isNaN(v) || v < 0) {
                fail(RejectReason.BAD_NUMBER, i, "seconds as a non-negative decimal, -1 or -");
                return null;
            }
            return v;
        }

        Integer integer(int i, long min, long max) {
            if (absent(i) || minusOne(i)) {
                return null;
            }
            long v = AsciiNumbers.parseBounded(line, bounds[2 * i], bounds[2 * i + 1], min, max);
            if (v == AsciiNumbers.INVALID) {
                fail(RejectReason.BAD_NUMBER, i, "an integer in " + min + ".." + max + ", -1 or -");
                return null;
            }
            return (int) v;
        }

        Long count(int i) {
            if (absent(i) || minusOne(i)) {
                return null;
            }
            long v = AsciiNumbers.parseLong(line, bounds[2 * i], bounds[2 * i + 1]);
            if (v == AsciiNumbers.INVALID || v < 0) {
                fail(RejectReason.BAD_NUMBER, i, "a byte count, -1 or -");
                return null;
            }
            return v;
        }

        /**
         * method, URL, protocol. The URL is everything between the first and the last space because
         * ALB logs the URL as the client sent it, spaces included; malformed requests log as
         * {@code - - -} or {@code - http://host:80- -}.
         */
        String[] splitRequest(int i) {
            String[] parts = new String[3];
            if (absent(i)) {
                return parts;
            }
            int from = bounds[2 * i];
            int to = bounds[2 * i + 1];
            int first = HostPort.indexOf(line, ' ', from, to);
            if (first < 0) {
                parts[0] = part(from, to);
                return parts;
            }
            int last = HostPort.lastIndexOf(line, ' ', first + 1, to);
            parts[0] = part(from, first);
            if (last < 0) {
                parts[1] = part(first + 1, to);
            } else {
                parts[1] = part(first + 1, last);
                parts[2] = part(last + 1, to);
            }
            return parts;
        }

        private String part(int from, int to) {
            if (to <= from || (to - from == 1 && line.charAt(from) == '-')) {
                return null;
            }
            return line.substring(from, to);
        }
    }
}
