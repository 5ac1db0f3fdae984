package io.hcwatch.parse;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

/**
 * Typed, validating access to the fields of one JSON object. A bad field stops the read with a
 * {@link Invalid} carrying the rejection; the readers turn it into a {@link ParseResult} so nothing
 * escapes them. Unknown fields are simply never looked at.
 */
final class JsonFields {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Why a field was refused; only ever thrown inside this package's JSON readers. */
    static final class Invalid extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String reason;

        Invalid(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    private final JsonNode node;
    private final String path;

    private JsonFields(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** @throws Invalid with {@link RejectReason#BAD_JSON} when the text is not one JSON object */
    static JsonFields parseObject(String json) {
        JsonNode tree;
        try {
            tree = json == null ? null : MAPPER.readTree(json);
        } catch (JacksonException | StackOverflowError e) {
            String detail = e instanceof JacksonException je ? je.getOriginalMessage() : "nesting too deep";
            throw new Invalid(RejectReason.BAD_JSON, "input held '" + Rejections.shown(json)
                    + "', expected a JSON object: " + Rejections.shown(detail));
        }
        if (tree == null || !tree.isObject()) {
            throw new Invalid(RejectReason.BAD_JSON, Rejections.describe("input", json, "a JSON object"));
        }
        return new JsonFields(tree, "");
    }

    private JsonNode value(String name, boolean required) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            if (required) {
                throw new Invalid(RejectReason.MISSING_FIELD, "field '" + path + name + "' is missing or null");
            }
            return null;
        }
        return v;
    }

    private Invalid badType(String name, JsonNode v, String expected) {
        return new Invalid(RejectReason.BAD_TYPE, Rejections.describe("field '" + path + name + "'", v.toString(), expected));
    }

    String string(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw badType(name, v, "a string");
        }
        if (required && v.asText().isBlank()) {
            throw new Invalid(RejectReason.MISSING_FIELD, "field '" + path + name + "' is empty");
        }
        return v.asText();
    }

    Integer integer(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v == null) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw badType(name, v, "an integer");
        }
        return v.intValue();
    }

    Double decimal(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
            throw badType(name, v, "a number");
        }
        return v.doubleValue();
    }

    Boolean bool(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            throw badType(name, v, "true or false");
        }
        return v.booleanValue();
    }

    /** ISO-8601 text with a zone, or epoch milliseconds; kept at millisecond precision like the Avro type. */
    Instant instant(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v == null) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return Instant.ofEpochMilli(v.longValue());
        }
        if (!v.isTextual()) {
            throw badType(name, v, "an ISO-8601 time such as 2026-03-03T14:32:45.120Z");
        }
        try {
            return OffsetDateTime.parse(v.asText()).toInstant().truncatedTo(ChronoUnit.MILLIS);
        } catch (DateTimeParseException e) {
            throw new Invalid(RejectReason.BAD_TIMESTAMP, Rejections.describe("field '" + path + name + "'",
                    v.asText(), "an ISO-8601 time with zone such as 2026-03-03T14:32:45.120Z"));
        }
    }

    <E extends Enum<E>> E enumValue(String name, Class<E> type, boolean required) {
        String text = string(name, required);
        if (text == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(text)) {
                return constant;
            }
        }
        throw new Invalid(RejectReason.BAD_ENUM, Rejections.describe("field '" + path + name + "'", text,
                "one of " + Arrays.toString(type.getEnumConstants())));
    }

    /** A nested object, or null when absent. */
    JsonFields object(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        if (!v.isObject()) {
            throw badType(name, v, "an object");
        }
        return new JsonFields(v, path + name + ".");
    }
}
