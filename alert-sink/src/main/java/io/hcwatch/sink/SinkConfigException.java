package io.hcwatch.sink;

/** A configuration the sink cannot run with; the message is one line that names the key. */
public final class SinkConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public SinkConfigException(String key, String problem) {
        super("config key '" + key + "': " + problem);
    }
}
