package io.hcwatch.parse;

/**
 * The fixed set of rejection reasons. They become a metric tag, so the set must stay small and
 * stable; the detail of what went wrong belongs in the rejection's {@code error} text.
 */
public final class RejectReason {

    /** The input is empty or only whitespace. */
    public static final String EMPTY = "empty";
    /** The bytes are not valid UTF-8. */
    public static final String BAD_UTF8 = "bad_utf8";
    /** Fewer fields than the oldest known format of the line. */
    public static final String FIELD_COUNT = "field_count";
    /** A quoted field is not closed, or a closing quote is glued to the next field. */
    public static final String BAD_QUOTING = "bad_quoting";
    /** A date or time field does not parse. */
    public static final String BAD_TIMESTAMP = "bad_timestamp";
    /** A numeric field does not parse or is out of range. */
    public static final String BAD_NUMBER = "bad_number";
    /** An ip:port field does not parse. */
    public static final String BAD_ADDRESS = "bad_address";
    /** The record type (ALB {@code type} field) is not one this parser accepts. */
    public static final String UNKNOWN_TYPE = "unknown_type";
    /** A field holds a value of the wrong shape (e.g. a server not written as backend/server). */
    public static final String BAD_FIELD = "bad_field";
    /** The line is not an HAProxy log line at all. */
    public static final String NOT_HAPROXY = "not_haproxy";
    /**
     * An HAProxy line in no format hcwatch knows: a custom log-format that is not declared
     * (haproxy.log-format.&lt;frontend&gt;), or a message it does not know.
     */
    public static final String UNKNOWN_FORMAT = "unknown_format";
    /** The input is not well-formed JSON, or not a JSON object. */
    public static final String BAD_JSON = "bad_json";
    /** A required JSON field is absent or null. */
    public static final String MISSING_FIELD = "missing_field";
    /** A JSON field holds a value outside its enumeration. */
    public static final String BAD_ENUM = "bad_enum";
    /**
     * The record parsed but names one more target group, target, host or frontend than its limit
     * (limits.*) allows: a producer putting ids or timestamps into names must not exhaust the heap.
     */
    public static final String CARDINALITY = "cardinality";
    /** A JSON field holds a value of the wrong JSON type. */
    public static final String BAD_TYPE = "bad_type";
    /** A value in the Confluent wire format whose Avro bytes do not read as the schema it names. */
    public static final String BAD_AVRO = "bad_avro";
    /** The decoder itself threw on the record: a bug of hcwatch's, the record kept for it. */
    public static final String INTERNAL_ERROR = "internal_error";

    private RejectReason() {
    }
}
