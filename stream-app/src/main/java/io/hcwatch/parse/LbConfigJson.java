package io.hcwatch.parse;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.Thresholds;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of {@link LbConfig} (docs/contract.md, "LbConfig"). Required: {@code kind, id, ts}. {@code ts} is
 * required rather than defaulted to now: the config topic is compacted and replayed, and a
 * replayed record stamped with the replay's wall clock would move a config change to the wrong
 * side of the failures it explains (health_check_config_risk fires "at the change").
 * {@code target_zones} (zone by target id and ip:port) and {@code zone_cidrs} (CIDRs by zone) are
 * objects; PARSERS.md has their rules.
 */
public final class LbConfigJson implements LineParser<LbConfig> {

    // The maps are read from a second parse of the text: JsonFields reads scalars and nested objects
    // but cannot list an object's keys, and config records are few enough for the extra parse.
    private static final ObjectMapper MAPS = new ObjectMapper();

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
                    f.string("host", false), f.string("frontend", false), f.nonNegative("maxconn"), null, null,
                    f.string("log_format", false));
            JsonNode tree = MAPS.readTree(json);
            config.setTargetZones(targetZones(tree.get("target_zones")));
            config.setZoneCidrs(zoneCidrs(tree.get("zone_cidrs")));
            return ParseResult.ok(config);
        } catch (JsonFields.Invalid invalid) {
            return ParseResult.rejected(invalid.reason, invalid.getMessage());
        } catch (JacksonException e) {
            // JsonFields has read the same text already; kept so that a difference cannot escape as an exception
            return ParseResult.rejected(RejectReason.BAD_JSON, "input is not one JSON object: " + Rejections.shown(e.getOriginalMessage()));
        }
    }

    /** Zone by target id or ip:port: an object of non-blank strings; null or absent is absent. */
    private static Map<String, String> targetZones(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw invalid(RejectReason.BAD_TYPE, "target_zones", node, "an object of zone names by target");
        }
        Map<String, String> zones = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode zone = e.getValue();
            if (!zone.isTextual()) {
                throw invalid(RejectReason.BAD_TYPE, "target_zones." + e.getKey(), zone, "a zone name");
            }
            if (zone.textValue().isBlank()) {
                throw invalid(RejectReason.BAD_FIELD, "target_zones." + e.getKey(), zone, "a zone name");
            }
            zones.put(e.getKey(), zone.textValue());
        }
        return zones;
    }

    /** CIDRs by zone: an object of arrays of IPv4 or IPv6 CIDRs; null or absent is absent. */
    private static Map<String, List<String>> zoneCidrs(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw invalid(RejectReason.BAD_TYPE, "zone_cidrs", node, "an object of CIDR arrays by zone");
        }
        Map<String, List<String>> cidrs = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = "zone_cidrs." + e.getKey();
            if (!e.getValue().isArray()) {
                throw invalid(RejectReason.BAD_TYPE, field, e.getValue(), "an array of CIDRs");
            }
            List<String> list = new ArrayList<>(e.getValue().size());
            for (JsonNode cidr : e.getValue()) {
                if (!cidr.isTextual()) {
                    throw invalid(RejectReason.BAD_TYPE, field, cidr, "a CIDR such as 10.0.1.0/24");
                }
                String text = cidr.textValue();
                if (!CidrNotation.isCidr(text)) {
                    throw invalid(RejectReason.BAD_ADDRESS, field, cidr, "a CIDR such as 10.0.1.0/24 or 2001:db8::/56");
                }
                list.add(text);
            }
            cidrs.put(e.getKey(), list);
        }
        return cidrs;
    }

    private static JsonFields.Invalid invalid(String reason, String field, JsonNode held, String expected) {
        return new JsonFields.Invalid(reason, Rejections.describe("field '" + field + "'",
                held.isTextual() ? held.textValue() : held.toString(), expected));
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
            writeTargetZones(g, c.getTargetZones());
            writeZoneCidrs(g, c.getZoneCidrs());
            g.writeStringField("log_format", c.getLogFormat());
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

    private static void writeTargetZones(JsonGenerator g, Map<String, String> zones) throws IOException {
        if (zones == null) {
            g.writeNullField("target_zones");
            return;
        }
        g.writeObjectFieldStart("target_zones");
        for (Map.Entry<String, String> e : zones.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static void writeZoneCidrs(JsonGenerator g, Map<String, List<String>> cidrs) throws IOException {
        if (cidrs == null) {
            g.writeNullField("zone_cidrs");
            return;
        }
        g.writeObjectFieldStart("zone_cidrs");
        for (Map.Entry<String, List<String>> e : cidrs.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (String cidr : e.getValue()) {
                g.writeString(cidr);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
