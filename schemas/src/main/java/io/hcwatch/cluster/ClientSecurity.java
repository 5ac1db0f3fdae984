package io.hcwatch.cluster;

/**
 * The Kafka client settings that say how to reach a secured cluster: {@code security.protocol},
 * {@code sasl.*} and {@code ssl.*}. Every command's properties file takes them at its top level,
 * under Kafka's own names, and gives them to each of its Kafka clients, so one block of settings
 * serves the stream app, the sink and the collectors alike; a client's own prefix (the stream
 * app's {@code streams.}, the sink's and collectors' {@code kafka.}) still wins over them.
 */
public final class ClientSecurity {

    public static final String SECURITY_PROTOCOL = "security.protocol";

    private ClientSecurity() {
    }

    /** Whether {@code key} (a top-level key of a command's file) is one of these settings. */
    public static boolean isSecurityKey(String key) {
        return key.equals(SECURITY_PROTOCOL) || key.startsWith("sasl.") || key.startsWith("ssl.");
    }
}
