package io.hcwatch.parse;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
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

    // fractions as BigDecimal: rounding and range checks see the number as written, not a double near it
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /** Epoch milliseconds of years 0000..9999: the times the writer's ISO-8601 form reads back. */
    static final long MIN_EPOCH_MS = -62_167_219_200_000L;
    static final long MAX_EPOCH_MS = 253_402_300_799_999L;

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
        } catch (JacksonException | NumberFormatException | StackOverflowError e) {
            // NumberFormatException: a number whose exponent is beyond ±2^31, in any field
            String detail = e instanceof JacksonException je ? je.getOriginalMessage()
                    : e instanceof NumberFormatException ? e.getMessage() : "nesting too deep";
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
                throw new Invalid(RejectReason.MISSING_FIELD, field(name) + " is missing or null");
            }
            return null;
        }
        return v;
    }

    private Invalid badType(String name, JsonNode v, String expected) {
        return new Invalid(RejectReason.BAD_TYPE, Rejections.describe(field(name), v.toString(), expected));
    }

    private String field(String name) {
        return "field '" + path + name + "'";
    }

    /** A string's own text, unquoted; any other value as JSON. */
    private static String held(JsonNode v) {
        return v.isTextual() ? v.textValue() : v.toString();
    }

    /** A non-blank string field's text, or null when absent or anything else (never throws). */
    String lenientString(String name) {
        JsonNode v = node.get(name);
        return v != null && v.isTextual() && !v.asText().isBlank() ? v.asText() : null;
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
            throw new Invalid(RejectReason.MISSING_FIELD, field(name) + " is empty");
        }
        return v.asText();
    }

    /**
     * A whole number in [min, max]: any JSON number, or a string holding one, rounded half away
     * from zero to the field's unit before its range is checked.
     */
    Integer whole(String name, int min, int max) {
        Long n = wholeLong(name, min, max);
        return n == null ? null : (int) (long) n;
    }

    /** A count or a duration: a whole number from 0 to the largest an Avro int holds. */
    Integer nonNegative(String name) {
        return whole(name, 0, Integer.MAX_VALUE);
    }

    /** A number in [min, max], checked on the exact value written; a string holding a number too. */
    Double decimal(String name, long min, long max) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        BigDecimal x = JsonNumbers.exact(v);
        if (x == null) {
            throw notANumber(name, v, min + ".." + max);
        }
        if (x.compareTo(BigDecimal.valueOf(min)) < 0 || x.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new Invalid(RejectReason.BAD_NUMBER, Rejections.describe(field(name), held(v), min + ".." + max));
        }
        return x.doubleValue();
    }

    private Invalid notANumber(String name, JsonNode v, String range) {
        if (v.isTextual()) {
            return new Invalid(RejectReason.BAD_NUMBER, Rejections.describe(field(name), v.textValue(), "a number "
                    + range + " written as JSON writes numbers (54, 54.2, 5.42e1): no spaces, units, '+' or hex"));
        }
        return badType(name, v, "a number " + range + ", or a string holding one");
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

    /**
     * ISO-8601 text with a zone, or epoch milliseconds written as any number or a string holding
     * one (rounded half away from zero); kept at millisecond precision like the Avro type.
     */
    Instant instant(String name, boolean required) {
        JsonNode v = value(name, required);
        if (v == null) {
            return null;
        }
        long epochMs = JsonNumbers.whole(v, MIN_EPOCH_MS, MAX_EPOCH_MS);
        if (epochMs == JsonNumbers.OUT_OF_RANGE) {
            throw new Invalid(RejectReason.BAD_TIMESTAMP, Rejections.describe(field(name), held(v),
                    "epoch milliseconds " + MIN_EPOCH_MS + ".." + MAX_EPOCH_MS + " (years 0000..9999)"));
        }
        if (epochMs != JsonNumbers.NOT_A_NUMBER) {
            return Instant.ofEpochMilli(epochMs);
        }
        if (!v.isTextual()) {
            throw badType(name, v, "an ISO-8601 time such as 2026-03-03T14:32:45.120Z, or epoch milliseconds");
        }
        Instant common = IsoInstants.parseUtc(v.asText());
        if (common != null) {
            return common.truncatedTo(ChronoUnit.MILLIS);
        }
        try {
            return OffsetDateTime.parse(v.asText()).toInstant().truncatedTo(ChronoUnit.MILLIS);
        } catch (DateTimeParseException e) {
            throw new Invalid(RejectReason.BAD_TIMESTAMP, Rejections.describe(field(name), v.asText(),
                    "an ISO-8601 time with zone such as 2026-03-03T14:32:45.120Z, or epoch milliseconds"));
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
        throw new Invalid(RejectReason.BAD_ENUM, Rejections.describe(field(name), text,
                "one of " + Arrays.toString(type.getEnumConstants())));
    }

    /** {@link #whole} for counters held as a long. */
    Long wholeLong(String name, long min, long max) {
        JsonNode v = value(name, false);
        if (v == null) {
            return null;
        }
        long n = JsonNumbers.whole(v, min, max);
        if (n == JsonNumbers.NOT_A_NUMBER) {
            throw notANumber(name, v, min + ".." + max);
        }
        if (n == JsonNumbers.OUT_OF_RANGE) {
            throw new Invalid(RejectReason.BAD_NUMBER, Rejections.describe(field(name), held(v),
                    min + ".." + max + " once rounded to a whole number"));
        }
        return n;
    }

    /** A required whole number in [min, max]. */
    int requiredWhole(String name, int min, int max) {
        value(name, true);
        return whole(name, min, max);
    }

    /** An array of objects, each read like this one (path {@code name[i].}); empty when absent or null. */
    java.util.List<JsonFields> objects(String name) {
        JsonNode v = value(name, false);
        if (v == null) {
            return java.util.List.of();
        }
        if (!v.isArray()) {
            throw badType(name, v, "an array of objects");
        }
        java.util.List<JsonFields> out = new java.util.ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            JsonNode item = v.get(i);
            if (!item.isObject()) {
                throw new Invalid(RejectReason.BAD_TYPE, Rejections.describe(field(name) + " item " + i, item.toString(), "an object"));
            }
            out.add(new JsonFields(item, path + name + "[" + i + "]."));
        }
        return out;
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
