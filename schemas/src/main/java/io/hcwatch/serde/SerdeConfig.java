package io.hcwatch.serde;

/** Configuration keys of the wire-format serdes, named as Confluent's serializers name them. */
public final class SerdeConfig {

    /** Registry base URL; {@code mock://scope} for an in-memory registry shared within the JVM. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    /** {@code true} (default): register the writer schema on first use; {@code false}: it must already be registered. */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    /** {@code USER_INFO} to send {@link #BASIC_AUTH_USER_INFO}; anything else sends no credentials. */
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    /** {@code user:password} for HTTP basic authentication against the registry. */
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String SSL_KEYSTORE_LOCATION = "schema.registry.ssl.keystore.location";
    public static final String SSL_KEYSTORE_PASSWORD = "schema.registry.ssl.keystore.password";
    public static final String SSL_KEYSTORE_TYPE = "schema.registry.ssl.keystore.type";
    public static final String SSL_KEY_PASSWORD = "schema.registry.ssl.key.password";
    /** Attempts for one registry call when it answers 5xx or cannot be reached (default 5). */
    public static final String MAX_ATTEMPTS = "schema.registry.max.attempts";
    /** Per-request timeout in milliseconds (default 10000). */
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";

    public static final String MOCK_SCHEME = "mock://";

    private SerdeConfig() {
    }
}
