package io.hcwatch.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Reads a health check's JSON in its plain shape, the one collectors write: strings as strings,
 * whole numbers as JSON integers in range, times as {@code 2026-03-03T14:32:45.120Z}, every
 * required field present, no field twice. It reads the tokens as Jackson's streaming parser gives
 * them, where {@link JsonFields} first builds the document's tree: the tree was three quarters of
 * a check's parse in the fleet bench. Anything else (a number in a string, a fraction, epoch
 * milliseconds, a bad value, a duplicate, trailing text) gives null, and the caller reads the line
 * again with {@link JsonFields}, whose rules and messages stay the only ones: this class only
 * takes what they would take, to the same record (PlainHealthCheckJsonProperties holds the two together).
 */
final class PlainHealthCheckJson {

    private static final Map<String, CheckOutcome> OUTCOMES = byName(CheckOutcome.values());
    private static final Map<String, TargetState> STATES = byName(TargetState.values());

    private final JsonFactory factory;

    PlainHealthCheckJson(JsonFactory factory) {
        this.factory = factory;
    }

    /**
     * The record the line holds in the plain shape, else null (read it with {@link JsonFields}):
     * whatever the streaming parser cannot take, the tree reader refuses with its reason.
     */
    HealthCheckResult read(String json) {
        try (JsonParser p = factory.createParser(json)) {
            return read(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** As {@link #read(String)}, for bytes the caller knows to be ASCII. */
    HealthCheckResult read(byte[] json) {
        try (JsonParser p = factory.createParser(json)) {
            return read(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private HealthCheckResult read(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        HealthCheckResult r = check(p);
        // the tree reader refuses trailing tokens; a second document or garbage goes to it
        return r != null && p.nextToken() == null ? r : null;
    }

    /**
     * Steps over an unknown field's value, as the tree reader would take it: false at a fraction
     * anywhere in it, which the tree reads as a BigDecimal (an exponent past 2^31 makes that
     * refuse the whole line), and whole numbers are parsed as the tree parses them.
     */
    private static boolean skipped(JsonParser p, JsonToken v) throws IOException {
        int depth = 0;
        for (JsonToken t = v; ; t = p.nextToken()) {
            if (t == JsonToken.VALUE_NUMBER_FLOAT || t == null) {
                return false;
            }
            if (t == JsonToken.VALUE_NUMBER_INT) {
                p.getNumberType();
            } else if (t.isStructStart()) {
                depth++;
            } else if (t.isStructEnd()) {
                depth--;
            }
            if (depth == 0) {
                return true;
            }
        }
    }

    private static HealthCheckResult check(JsonParser p) throws IOException {
        Instant ts = null;
        String source = null, lb = null, targetGroup = null, target = null, targetIp = null, az = null, reason = null;
        Integer port = null, latency = null, status = null, serversLeft = null;
        CheckOutcome outcome = null;
        TargetState state = null;
        CheckConfig config = null;
        Instant registeredAt = null;
        Fields fields = new Fields(p);
        for (int bit = fields.next(PlainHealthCheckJson::checkField); bit != 0; bit = fields.next(PlainHealthCheckJson::checkField)) {
            JsonToken v = p.currentToken();
            Object value = switch (bit) {
                case NOT_PLAIN -> null;
                case 1 -> ts = time(p, v);
                case 1 << 1 -> source = text(p, v);
                case 1 << 2 -> lb = text(p, v);
                case 1 << 3 -> targetGroup = text(p, v);
                case 1 << 4 -> target = text(p, v);
                case 1 << 5 -> targetIp = text(p, v);
                case 1 << 6 -> port = whole(p, v, 65_535);
                case 1 << 7 -> az = text(p, v);
                case 1 << 8 -> outcome = v == JsonToken.VALUE_STRING ? OUTCOMES.get(p.getText()) : null;
                case 1 << 9 -> latency = whole(p, v, Integer.MAX_VALUE);
                case 1 << 10 -> status = whole(p, v, 999);
                case 1 << 11 -> state = v == JsonToken.VALUE_STRING ? STATES.get(p.getText()) : null;
                case 1 << 12 -> reason = text(p, v);
                case 1 << 13 -> config = v == JsonToken.START_OBJECT ? config(p) : null;
                case 1 << 14 -> registeredAt = time(p, v);
                default -> serversLeft = whole(p, v, Integer.MAX_VALUE);
            };
            if (value == null) {
                // not in the plain shape: JsonFields judges it
                return null;
            }
        }
        if (ts == null || outcome == null || blank(targetGroup) || blank(target)) {
            return null;
        }
        return new HealthCheckResult(ts, source, lb, targetGroup, target, targetIp, port, az, outcome, latency, status,
                state, reason, config, registeredAt, serversLeft);
    }

    /** A HealthCheckResult field's bit, 0 for a field it does not have. */
    private static int checkField(String name) {
        return switch (name) {
            case "ts" -> 1;
            case "source" -> 1 << 1;
            case "lb" -> 1 << 2;
            case "target_group" -> 1 << 3;
            case "target" -> 1 << 4;
            case "target_ip" -> 1 << 5;
            case "port" -> 1 << 6;
            case "az" -> 1 << 7;
            case "outcome" -> 1 << 8;
            case "latency_ms" -> 1 << 9;
            case "status_code" -> 1 << 10;
            case "state" -> 1 << 11;
            case "reason" -> 1 << 12;
            case "check" -> 1 << 13;
            case "registered_at" -> 1 << 14;
            case "active_servers_left" -> 1 << 15;
            default -> 0;
        };
    }

    private static CheckConfig config(JsonParser p) throws IOException {
        String path = null;
        Integer interval = null, timeout = null, healthy = null, unhealthy = null;
        Fields fields = new Fields(p);
        for (int bit = fields.next(PlainHealthCheckJson::configField); bit != 0; bit = fields.next(PlainHealthCheckJson::configField)) {
            JsonToken v = p.currentToken();
            Object value = switch (bit) {
                case NOT_PLAIN -> null;
                case 1 -> path = text(p, v);
                case 2 -> interval = whole(p, v, Integer.MAX_VALUE);
                case 4 -> timeout = whole(p, v, Integer.MAX_VALUE);
                case 8 -> healthy = whole(p, v, Integer.MAX_VALUE);
                default -> unhealthy = whole(p, v, Integer.MAX_VALUE);
            };
            if (value == null) {
                return null;
            }
        }
        return new CheckConfig(path, interval, timeout, healthy, unhealthy);
    }

    /** A CheckConfig field's bit, 0 for a field it does not have. */
    private static int configField(String name) {
        return switch (name) {
            case "path" -> 1;
            case "interval_ms" -> 2;
            case "timeout_ms" -> 4;
            case "healthy_threshold" -> 8;
            case "unhealthy_threshold" -> 16;
            default -> 0;
        };
    }

    /** What {@link Fields#next} gives when the object leaves the plain shape. */
    private static final int NOT_PLAIN = -1;

    /** The fields of one object, each known one at most once. */
    private static final class Fields {
        private final JsonParser p;
        private int seen;

        Fields(JsonParser p) {
            this.p = p;
        }

        /**
         * Moves to the value of the next known field not null: its bit, 0 at the object's end, or
         * {@link #NOT_PLAIN} (a field twice, an unknown one holding a fraction).
         */
        int next(ToIntFunction<String> bits) throws IOException {
            for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                if (t != JsonToken.FIELD_NAME) {
                    return NOT_PLAIN;
                }
                int bit = bits.applyAsInt(p.currentName());
                JsonToken v = p.nextToken();
                if (bit == 0) {
                    if (!skipped(p, v)) {
                        return NOT_PLAIN;
                    }
                } else if ((seen & bit) != 0) {
                    return NOT_PLAIN;
                } else {
                    seen |= bit;
                    if (v != JsonToken.VALUE_NULL) {
                        return bit;
                    }
                }
            }
            return 0;
        }
    }

    private static String text(JsonParser p, JsonToken v) throws IOException {
        return v == JsonToken.VALUE_STRING ? p.getText() : null;
    }

    /** A JSON integer in [0, max]; null for any other token or value. */
    private static Integer whole(JsonParser p, JsonToken v, int max) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
            return null;
        }
        int n = p.getIntValue();
        return n >= 0 && n <= max ? n : null;
    }

    private static Instant time(JsonParser p, JsonToken v) throws IOException {
        if (v != JsonToken.VALUE_STRING) {
            return null;
        }
        Instant t = IsoInstants.parseUtc(p.getText());
        return t == null ? null : t.truncatedTo(ChronoUnit.MILLIS);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static <E extends Enum<E>> Map<String, E> byName(E[] values) {
        Map<String, E> m = new HashMap<>();
        for (E e : values) {
            m.put(e.name(), e);
        }
        return Map.copyOf(m);
    }
}
