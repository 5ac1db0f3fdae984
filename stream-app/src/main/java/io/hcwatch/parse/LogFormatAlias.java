package io.hcwatch.parse;

import java.util.HashMap;
import java.util.Map;

/**
 * HAProxy's log-format aliases ({@code %ci}, {@code %TR}, ...), as its configuration manual lists
 * them under "Custom log format", each with the shape its value is written in. Aliases hcwatch
 * has no field for are still read (and checked for their shape where it is fixed), so a format
 * that logs them parses.
 */
enum LogFormatAlias {
    CLIENT_IP("ci", Shape.ADDRESS),
    CLIENT_PORT("cp", Shape.PORT),
    FRONTEND_IP("fi", Shape.ADDRESS),
    FRONTEND_PORT("fp", Shape.PORT),
    BACKEND_IP("bi", Shape.ADDRESS),
    BACKEND_PORT("bp", Shape.PORT),
    SERVER_IP("si", Shape.ADDRESS),
    SERVER_PORT("sp", Shape.PORT),
    FRONTEND("f", Shape.NAME),
    FRONTEND_TRANSPORT("ft", Shape.NAME),
    BACKEND("b", Shape.NAME),
    SERVER("s", Shape.NAME),
    HOSTNAME("H", Shape.NAME),
    PID("pid", Shape.NUMBER),
    ACCEPT_DATE("t", Shape.LOCAL_DATE),
    REQUEST_DATE("tr", Shape.LOCAL_DATE),
    ACCEPT_DATE_GMT("T", Shape.ZONED_DATE),
    ACCEPT_DATE_LOCAL("Tl", Shape.ZONED_DATE),
    REQUEST_DATE_GMT("trg", Shape.ZONED_DATE),
    REQUEST_DATE_LOCAL("trl", Shape.ZONED_DATE),
    ACCEPT_SECONDS("Ts", Shape.NUMBER),
    ACCEPT_MILLIS("ms", Shape.NUMBER),
    TIME_REQUEST("TR", Shape.TIMER),
    TIME_WAIT("Tw", Shape.TIMER),
    TIME_CONNECT("Tc", Shape.TIMER),
    TIME_RESPONSE("Tr", Shape.TIMER),
    TIME_ACTIVE("Ta", Shape.TIMER),
    TIME_TOTAL("Tt", Shape.TIMER),
    TIME_HANDSHAKE("Th", Shape.TIMER),
    TIME_IDLE("Ti", Shape.TIMER),
    TIME_QUEUE_REQUEST("Tq", Shape.TIMER),
    STATUS("ST", Shape.NUMBER),
    BYTES_READ("B", Shape.NUMBER),
    BYTES_UPLOADED("U", Shape.NUMBER),
    REQUEST_COOKIE("CC", Shape.NAME),
    RESPONSE_COOKIE("CS", Shape.NAME),
    TERMINATION("ts", Shape.NAME),
    TERMINATION_COOKIE("tsc", Shape.NAME),
    ACTCONN("ac", Shape.NUMBER),
    FECONN("fc", Shape.NUMBER),
    BECONN("bc", Shape.NUMBER),
    SRV_CONN("sc", Shape.NUMBER),
    RETRIES("rc", Shape.NUMBER),
    SRV_QUEUE("sq", Shape.NUMBER),
    BACKEND_QUEUE("bq", Shape.NUMBER),
    REQUEST_HEADERS("hr", Shape.BRACES),
    RESPONSE_HEADERS("hs", Shape.BRACES),
    REQUEST_HEADER_LIST("hrl", Shape.TEXT),
    RESPONSE_HEADER_LIST("hsl", Shape.TEXT),
    REQUEST_LINE("r", Shape.TEXT),
    METHOD("HM", Shape.NAME),
    URI("HU", Shape.TEXT),
    VERSION("HV", Shape.NAME),
    PATH("HP", Shape.TEXT),
    PATH_ONLY("HPO", Shape.TEXT),
    QUERY("HQ", Shape.TEXT),
    UNIQUE_ID("ID", Shape.NAME),
    REQUEST_COUNTER("rt", Shape.NUMBER),
    LOG_COUNTER("lc", Shape.NUMBER),
    SSL_CIPHER("sslc", Shape.NAME),
    SSL_VERSION("sslv", Shape.NAME),
    /** {@code %[fetch,converter...]}: kept opaque, its value can be anything. */
    SAMPLE("[", Shape.TEXT);

    /** How a value is written, which says where it ends and how it is read. */
    enum Shape {
        /** an IP address, {@code -} or {@code unix} */
        ADDRESS,
        PORT,
        /** a name or code without spaces */
        NAME,
        /** a decimal (or with +X, hex) integer, possibly negative */
        NUMBER,
        /** milliseconds; -1 when the phase was not reached, a leading + with option logasap */
        TIMER,
        /** {@code dd/MMM/yyyy:HH:mm:ss[.SSS]}: 20 or 24 characters */
        LOCAL_DATE,
        /** {@code dd/MMM/yyyy:HH:mm:ss +hhmm}: 26 characters, one of them a space */
        ZONED_DATE,
        /** {@code {a|b}}, or nothing at all when no header is captured */
        BRACES,
        /** anything, spaces included: it ends where the text after it is found, or the line where it was cut */
        TEXT
    }

    private static final Map<String, LogFormatAlias> BY_NAME = new HashMap<>();

    static {
        for (LogFormatAlias a : values()) {
            BY_NAME.put(a.name, a);
        }
    }

    final String name;
    final Shape shape;

    LogFormatAlias(String name, Shape shape) {
        this.name = name;
        this.shape = shape;
    }

    /** @return null when HAProxy has no such alias */
    static LogFormatAlias named(String name) {
        return BY_NAME.get(name);
    }

    /**
     * Values that may hold the text that follows them in the format, so more than one end is tried:
     * free text, and addresses before a ':' (IPv6 has colons of its own).
     */
    boolean mayHoldDelimiter() {
        return shape == Shape.TEXT || shape == Shape.ADDRESS;
    }

    /** Captured headers: with no capture configured, HAProxy writes nothing at all for them. */
    boolean mayBeAbsent() {
        return this == REQUEST_HEADERS || this == RESPONSE_HEADERS || this == REQUEST_HEADER_LIST
                || this == RESPONSE_HEADER_LIST;
    }

    /** Fields an HTTP format has and a TCP one has not. */
    boolean isHttp() {
        return switch (this) {
            case TIME_REQUEST, TIME_RESPONSE, TIME_ACTIVE, STATUS, REQUEST_COOKIE, RESPONSE_COOKIE, TERMINATION_COOKIE,
                 REQUEST_HEADERS, RESPONSE_HEADERS, REQUEST_LINE, METHOD, URI, VERSION -> true;
            default -> false;
        };
    }

    @Override
    public String toString() {
        return this == SAMPLE ? "%[...]" : "%" + name;
    }
}
