package io.hcwatch.serde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertScope;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.Severity;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON form of an {@link Alert} (docs/contract.md, "Alerts"): one object per line, fields in the order the
 * contract shows, timestamps as ISO-8601 UTC with {@code Z}, absent scope members written as
 * {@code null}. Details are written sorted by key so that the same alert always prints the same
 * line (Avro hands maps back in hash order).
 */
public final class AlertJson {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] SCOPE_FIELDS = {"lb", "target_group", "zone", "host", "frontend", "client", "target"};

    private AlertJson() {
    }

    /** One line of JSON, without a line terminator. */
    public static String toJson(Alert alert) {
        StringWriter out = new StringWriter(512);
        try (JsonGenerator json = FACTORY.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("alert_id", alert.getAlertId());
            json.writeStringField("dedup_key", alert.getDedupKey());
            json.writeStringField("type", alert.getType());
            json.writeStringField("severity", alert.getSeverity().name());
            json.writeStringField("status", alert.getStatus().name());
            writeInstant(json, "event_time", alert.getEventTime());
            writeInstant(json, "window_start", alert.getWindowStart());
            writeInstant(json, "window_end", alert.getWindowEnd());
            json.writeObjectFieldStart("scope");
            AlertScope scope = alert.getScope();
            for (String field : SCOPE_FIELDS) {
                json.writeStringField(field, scope == null ? null : scopeValue(scope, field));
            }
            json.writeEndObject();
            json.writeStringField("summary", alert.getSummary());
            json.writeObjectFieldStart("details");
            for (Map.Entry<String, String> e : new TreeMap<>(alert.getDetails()).entrySet()) {
                json.writeStringField(e.getKey(), e.getValue());
            }
            json.writeEndObject();
            json.writeStringField("runbook_url", alert.getRunbookUrl());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write alert " + alert.getDedupKey() + " as JSON", e);
        }
        return out.toString();
    }

    /**
     * Reads the JSON form back; throws {@link IllegalArgumentException} naming the field that is
     * missing or malformed.
     */
    public static Alert fromJson(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("alert is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("alert must be a JSON object");
        }
        return Alert.newBuilder()
                .setAlertId(requiredText(root, "alert_id"))
                .setDedupKey(requiredText(root, "dedup_key"))
                .setType(requiredText(root, "type"))
                .setSeverity(enumValue(Severity.class, root, "severity"))
                .setStatus(enumValue(AlertStatus.class, root, "status"))
                .setEventTime(instant(root, "event_time", true))
                .setWindowStart(instant(root, "window_start", false))
                .setWindowEnd(instant(root, "window_end", false))
                .setScope(scope(root.get("scope")))
                .setSummary(requiredText(root, "summary"))
                .setDetails(details(root.get("details")))
                .setRunbookUrl(optionalText(root, "runbook_url"))
                .build();
    }

    private static void writeInstant(JsonGenerator json, String field, Instant value) throws IOException {
        json.writeStringField(field, value == null ? null : value.toString());
    }

    /** A scope member by its JSON name ({@code lb}, {@code target_group}, ..., {@code target}). */
    public static String scopeValue(AlertScope scope, String field) {
        return switch (field) {
            case "lb" -> scope.getLb();
            case "target_group" -> scope.getTargetGroup();
            case "zone" -> scope.getZone();
            case "host" -> scope.getHost();
            case "frontend" -> scope.getFrontend();
            case "client" -> scope.getClient();
            case "target" -> scope.getTarget();
            default -> throw new IllegalArgumentException("no scope field " + field);
        };
    }

    private static AlertScope scope(JsonNode node) {
        if (node == null || node.isNull()) {
            return new AlertScope();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("scope must be an object, got " + node.getNodeType());
        }
        return AlertScope.newBuilder()
                .setLb(optionalText(node, "lb", "scope."))
                .setTargetGroup(optionalText(node, "target_group", "scope."))
                .setZone(optionalText(node, "zone", "scope."))
                .setHost(optionalText(node, "host", "scope."))
                .setFrontend(optionalText(node, "frontend", "scope."))
                .setClient(optionalText(node, "client", "scope."))
                .setTarget(optionalText(node, "target", "scope."))
                .build();
    }

    private static Map<String, String> details(JsonNode node) {
        Map<String, String> details = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return details;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("details must be an object of strings, got " + node.getNodeType());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException("details." + e.getKey() + " must be a string, got "
                        + e.getValue().getNodeType());
            }
            details.put(e.getKey(), e.getValue().asText());
        }
        return details;
    }

    private static String requiredText(JsonNode root, String field) {
        String value = optionalText(root, field);
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    private static String optionalText(JsonNode node, String field) {
        return optionalText(node, field, "");
    }

    private static String optionalText(JsonNode node, String field, String prefix) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(prefix + field + " must be a string, got " + value.getNodeType());
        }
        return value.asText();
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, JsonNode root, String field) {
        String value = requiredText(root, field);
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + " is '" + value + "', expected one of "
                    + java.util.Arrays.toString(type.getEnumConstants()), e);
        }
    }

    private static Instant instant(JsonNode root, String field, boolean required) {
        String value = required ? requiredText(root, field) : optionalText(root, field);
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " is '" + value + "', expected ISO-8601 UTC like 2026-03-03T14:33:10Z", e);
        }
    }
}
