package io.hcwatch.parse;

import com.fasterxml.jackson.core.JsonGenerator;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.Thresholds;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The JSON form of {@link LbConfig} (SPEC §2). Required: {@code kind, id, ts}. {@code ts} is
 * required rather than defaulted to now: the config topic is compacted and replayed, and a
 * replayed record stamped with the replay's wall clock would move a config change to the wrong
 * side of the failures it explains (health_check_config_risk fires "at the change").
 */
public final class LbConfigJson implements LineParser<LbConfig> {

    @Override
    public ParseResult<LbConfig> parse(String json) {
        if (json == null || json.isBlank()) {
            return ParseResult.rejected(RejectReason.EMPTY, "input is empty");
        }
        try {
            JsonFields f = JsonFields.parseObject(json);
            ConfigKind kind = f.enumValue("kind", ConfigKind.class, true);
            LbConfig config = new LbConfig(kind, f.string("id", true), f.instant("ts", true), f.string("lb", false),
                    f.bool("cross_zone"), f.nonNegative("registered_targets"), thresholds(f.object("unhealthy_state_routing")),
                    thresholds(f.object("dns_failover")), HealthCheckResultJson.checkConfig(f.object("health_check")),
                    f.string("host", false), f.string("frontend", false), f.nonNegative("maxconn"));
            return ParseResult.ok(config);
        } catch (JsonFields.Invalid invalid) {
            return ParseResult.rejected(invalid.reason, invalid.getMessage());
        }
    }

    private static Thresholds thresholds(JsonFields t) {
        if (t == null) {
            return null;
        }
        return new Thresholds(t.nonNegative("min_healthy_count"),
                t.decimal("min_healthy_percent", 0, 100));
    }

    /** One line of JSON, every field of the record written (absent ones as null). */
    public static String write(LbConfig c) {
        StringWriter out = new StringWriter(300);
        try (JsonGenerator g = HealthCheckResultJson.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("kind", c.getKind().name());
            g.writeStringField("id", c.getId());
            g.writeStringField("ts", c.getTs().toString());
            g.writeStringField("lb", c.getLb());
            if (c.getCrossZone() == null) {
                g.writeNullField("cross_zone");
            } else {
                g.writeBooleanField("cross_zone", c.getCrossZone());
            }
            HealthCheckResultJson.writeInt(g, "registered_targets", c.getRegisteredTargets());
            writeThresholds(g, "unhealthy_state_routing", c.getUnhealthyStateRouting());
            writeThresholds(g, "dns_failover", c.getDnsFailover());
            g.writeFieldName("health_check");
            HealthCheckResultJson.writeCheck(g, c.getHealthCheck());
            g.writeStringField("host", c.getHost());
            g.writeStringField("frontend", c.getFrontend());
            HealthCheckResultJson.writeInt(g, "maxconn", c.getMaxconn());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to a StringWriter", e);
        }
        return out.toString();
    }

    private static void writeThresholds(JsonGenerator g, String name, Thresholds t) throws IOException {
        if (t == null) {
            g.writeNullField(name);
            return;
        }
        g.writeObjectFieldStart(name);
        HealthCheckResultJson.writeInt(g, "min_healthy_count", t.getMinHealthyCount());
        if (t.getMinHealthyPercent() == null) {
            g.writeNullField("min_healthy_percent");
        } else {
            g.writeNumberField("min_healthy_percent", t.getMinHealthyPercent());
        }
        g.writeEndObject();
    }
}
