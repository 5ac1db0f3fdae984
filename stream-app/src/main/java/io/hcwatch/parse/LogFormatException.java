package io.hcwatch.parse;

/** A log-format string hcwatch cannot read; the message says where and why, in one line. */
public final class LogFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    LogFormatException(String message) {
        super(message);
    }
}
