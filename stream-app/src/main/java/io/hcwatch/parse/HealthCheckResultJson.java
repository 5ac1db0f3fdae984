package io.hcwatch.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The JSON form of {@link HealthCheckResult} (docs/contract.md, "HealthCheckResult"): one object per line. Required:
 * {@code ts, target_group, target, outcome}; everything else optional; unknown fields ignored.
 * {@code ts} and {@code registered_at} are ISO-8601 with a zone (epoch milliseconds accepted too).
 * Numeric fields take any JSON number or a string holding one; ranges and rounding in PARSERS.md.
 */
public final class HealthCheckResultJson implements LineParser<HealthCheckResult> {

    static final JsonFactory FACTORY = new JsonFactory();

    private static final PlainHealthCheckJson PLAIN = new PlainHealthCheckJson(FACTORY);

    @Override
    public ParseResult<HealthCheckResult> parse(String json) {
        HealthCheckResult plain = json == null ? null : PLAIN.read(json);
        return plain != null ? ParseResult.ok(plain) : readNonEmpty(json);
    }

    /**
     * ASCII, as collectors write, is read from its bytes by the plain-shape reader: no String of
     * the whole line, and Jackson's byte parser is its quicker one; a line it leaves goes to the
     * tree reader without a second try. Anything else goes through the strict UTF-8 decoding to
     * {@link #parse(String)}.
     */
    @Override
    public ParseResult<HealthCheckResult> parse(byte[] utf8) {
        if (utf8 == null || !Utf8.isAscii(utf8)) {
            return LineParser.super.parse(utf8);
        }
        HealthCheckResult plain = PLAIN.read(utf8);
        return plain != null ? ParseResult.ok(plain) : readNonEmpty(new String(utf8, StandardCharsets.US_ASCII));
    }

    private static ParseResult<HealthCheckResult> readNonEmpty(String json) {
        if (json == null || json.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "input is empty");
        }
        return readFields(json);
    }

    /**
     * The line read through {@link JsonFields} alone: every form the contract takes, and the reason
     * for any it refuses (public for the benchmark that weighs the plain-shape reader against it).
     */
    public static ParseResult<HealthCheckResult> readFields(String json) {
        JsonFields f;
        try {
            f = JsonFields.parseObject(json);
        } catch (JsonFields.Invalid invalid) {
            return ParseResult.rejected(invalid.reason, invalid.getMessage());
        }
        try {
            HealthCheckResult r = new HealthCheckResult(
                    f.instant("ts", true), f.string("source", false), f.string("lb", false),
                    f.string("target_group", true), f.string("target", true), f.string("target_ip", false),
                    f.whole("port", 0, 65_535), f.string("az", false), f.enumValue("outcome", CheckOutcome.class, true),
                    f.nonNegative("latency_ms"), f.whole("status_code", 0, 999),
                    f.enumValue("state", TargetState.class, false), f.string("reason", false),
                    checkConfig(f.object("check")), f.instant("registered_at", false),
                    f.nonNegative("active_servers_left"));
            return ParseResult.ok(r);
        } catch (JsonFields.Invalid invalid) {
            return new ParseResult.Rejected<HealthCheckResult>(invalid.reason, invalid.getMessage()).naming(identity(f));
        }
    }

    /** The target group and target a rejected check still names (both non-empty strings), else null. */
    private static TargetIdentity identity(JsonFields f) {
        String targetGroup = f.lenientString("target_group");
        String target = f.lenientString("target");
        if (targetGroup == null || target == null) {
            return null;
        }
        long time;
        try {
            java.time.Instant ts = f.instant("ts", false);
            time = ts == null ? -1 : ts.toEpochMilli();
        } catch (JsonFields.Invalid e) {
            time = -1;
        }
        return new TargetIdentity(targetGroup, target, time);
    }

    static CheckConfig checkConfig(JsonFields check) {
        if (check == null) {
            return null;
        }
        return new CheckConfig(check.string("path", false), check.nonNegative("interval_ms"),
                check.nonNegative("timeout_ms"), check.nonNegative("healthy_threshold"),
                check.nonNegative("unhealthy_threshold"));
    }

    /** One line of JSON, every field of the record written (absent ones as null). */
    public static String write(HealthCheckResult r) {
        StringWriter out = new StringWriter(400);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("ts", r.getTs().toString());
            g.writeStringField("source", r.getSource());
            g.writeStringField("lb", r.getLb());
            g.writeStringField("target_group", r.getTargetGroup());
            g.writeStringField("target", r.getTarget());
            g.writeStringField("target_ip", r.getTargetIp());
            writeInt(g, "port", r.getPort());
            g.writeStringField("az", r.getAz());
            g.writeStringField("outcome", r.getOutcome().name());
            writeInt(g, "latency_ms", r.getLatencyMs());
            writeInt(g, "status_code", r.getStatusCode());
            g.writeStringField("state", r.getState() == null ? null : r.getState().name());
            g.writeStringField("reason", r.getReason());
            g.writeFieldName("check");
            writeCheck(g, r.getCheck());
            g.writeStringField("registered_at", r.getRegisteredAt() == null ? null : r.getRegisteredAt().toString());
            writeInt(g, "active_servers_left", r.getActiveServersLeft());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a StringWriter", e);
        }
        return out.toString();
    }

    public static byte[] writeBytes(HealthCheckResult r) {
        return write(r).getBytes(StandardCharsets.UTF_8);
    }

    static void writeCheck(JsonGenerator g, CheckConfig c) throws IOException {
        if (c == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("path", c.getPath());
        writeInt(g, "interval_ms", c.getIntervalMs());
        writeInt(g, "timeout_ms", c.getTimeoutMs());
        writeInt(g, "healthy_threshold", c.getHealthyThreshold());
        writeInt(g, "unhealthy_threshold", c.getUnhealthyThreshold());
        g.writeEndObject();
    }

    static void writeInt(JsonGenerator g, String name, Integer v) throws IOException {
        if (v == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, v);
        }
    }
}
