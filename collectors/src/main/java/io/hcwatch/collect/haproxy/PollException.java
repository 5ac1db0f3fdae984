package io.hcwatch.collect.haproxy;

/**
 * One poll of one host failed; nothing of that poll is published. {@code reason} is a short
 * category from {@link Reasons} (it becomes the metric tag), the message says what was seen.
 */
final class PollException extends Exception {

    private static final long serialVersionUID = 1L;
    final String reason;

    PollException(String reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    PollException(String reason, String message, Throwable cause) {
        super(message, cause, false, false);
        this.reason = reason;
    }

    /** Poll error reasons, the values of {@code hcwatch_collector_poll_errors_total{reason}}. */
    static final class Reasons {
        static final String CONNECTION_REFUSED = "connection_refused";
        static final String UNREACHABLE = "unreachable";
        static final String PERMISSION_DENIED = "permission_denied";
        static final String TIMEOUT = "timeout";
        static final String IO_ERROR = "io_error";
        static final String UNKNOWN_COMMAND = "unknown_command";
        static final String HTTP_STATUS = "http_status";
        static final String TRUNCATED = "truncated";
        static final String MISSING_COLUMN = "missing_column";
        static final String BAD_VALUE = "bad_value";
        static final String UNKNOWN_FORMAT = "unknown_format";
        static final String INTERNAL_ERROR = "internal_error";

        private Reasons() {
        }
    }
}
