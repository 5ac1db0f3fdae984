package io.hcwatch.serde;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/** Configuration keys of the wire-format serdes, named as Confluent's serializers name them. */
public final class SerdeConfig {

    /** Registry base URL; {@code mock://scope} for an in-memory registry shared within the JVM. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    /** {@code true} (default): register the writer schema on first use; {@code false}: it must already be registered. */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    /**
     * Where basic-auth credentials come from: {@code URL} (default, as Confluent's) takes
     * {@code user:password@} from the registry URL, {@code USER_INFO} sends {@link #BASIC_AUTH_USER_INFO}.
     */
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
    /** Wait before the first retry in milliseconds, doubled per retry with jitter (default 100). */
    public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";
    /** Cap of the wait between retries in milliseconds (default 5000). */
    public static final String RETRY_BACKOFF_MAX_MS = "schema.registry.retry.backoff.max.ms";
    /** How long a subject's latest version is reused before the registry is asked again (default 30000). */
    public static final String LATEST_CACHE_TTL_MS = "schema.registry.latest.cache.ttl.ms";

    public static final String MOCK_SCHEME = "mock://";

    /**
     * A {@link RegistryWait} object (not a string): serdes configured with one wait out a registry
     * outage instead of throwing {@link SchemaRegistryUnavailableException}.
     */
    public static final String REGISTRY_WAIT = "hcwatch.registry.wait";

    /** The {@link RegistryWait} in {@code configs}, or null. */
    static RegistryWait registryWait(Map<String, ?> configs) {
        Object wait = configs.get(REGISTRY_WAIT);
        if (wait != null && !(wait instanceof RegistryWait)) {
            throw new ConfigException(REGISTRY_WAIT, wait, "must be a RegistryWait object");
        }
        return (RegistryWait) wait;
    }

    private SerdeConfig() {
    }
}
