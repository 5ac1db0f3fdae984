package io.hcwatch.app;

/** A configuration problem, told in one line that names the key. */
public final class ConfigException extends RuntimeException {

    public ConfigException(String message) {
        super(message);
    }
}
