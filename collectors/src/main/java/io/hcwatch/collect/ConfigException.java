package io.hcwatch.collect;

/** A configuration a collector cannot run with; the message is one line that names the key. */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public static ConfigException key(String key, String problem) {
        return new ConfigException("config key '" + key + "': " + problem);
    }
}
