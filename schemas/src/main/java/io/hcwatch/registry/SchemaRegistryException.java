package io.hcwatch.registry;

import java.io.IOException;

/**
 * A registry answer that is not a schema: carries the HTTP status and the registry's own
 * error code (e.g. 40401 subject not found, 409 incompatible, 42201 invalid schema).
 */
public class SchemaRegistryException extends RuntimeException {

    public static final int SUBJECT_NOT_FOUND = 40401;
    public static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;
    public static final int SUBJECT_COMPATIBILITY_NOT_CONFIGURED = 40408;
    public static final int INCOMPATIBLE_SCHEMA = 409;
    public static final int INVALID_SCHEMA = 42201;
    public static final int INVALID_VERSION = 42202;
    public static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    public static final int BACKEND_ERROR = 50001;

    private final int status;
    private final int errorCode;
    private final String registryMessage;

    public SchemaRegistryException(int status, int errorCode, String message) {
        super(message + " (HTTP " + status + ", error code " + errorCode + ")");
        this.status = status;
        this.errorCode = errorCode;
        this.registryMessage = message;
    }

    public SchemaRegistryException(int status, int errorCode, String message, Throwable cause) {
        super(message + " (HTTP " + status + ", error code " + errorCode + ")", cause);
        this.status = status;
        this.errorCode = errorCode;
        this.registryMessage = message;
    }

    public SchemaRegistryException(String message, Throwable cause) {
        super(message, cause);
        this.status = -1;
        this.errorCode = -1;
        this.registryMessage = message;
    }

    /** HTTP status, or -1 when the registry could not be reached. */
    public int status() {
        return status;
    }

    public int errorCode() {
        return errorCode;
    }

    /** The message without the status suffix, as a registry would put it in its error body. */
    public String registryMessage() {
        return registryMessage;
    }

    public boolean isNotFound() {
        return status == 404;
    }

    /**
     * Whether the registry could not answer the question rather than answering it: unreachable,
     * timed out, interrupted, 5xx, rate-limited, refusing our credentials (401/403, which an
     * operator fixes without the data changing), or a 404 that is not the registry's own (a proxy or
     * a wrong path prefix). Asking again later may work; the record that needed it is not bad data.
     */
    public boolean isUnavailable() {
        if (status < 0) {
            return getCause() instanceof IOException || getCause() instanceof InterruptedException;
        }
        return status >= 500 || status == 429 || status == 401 || status == 403
                || status == 404 && errorCode / 100 != 404;
    }
}
