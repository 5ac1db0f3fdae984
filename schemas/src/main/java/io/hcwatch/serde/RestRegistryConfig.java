package io.hcwatch.serde;

import io.hcwatch.registry.BasicAuth;
import io.hcwatch.registry.RegistryTls;
import io.hcwatch.registry.RestClientSettings;
import io.hcwatch.registry.StoreFile;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the settings of a REST registry client from serde configuration (Confluent's key names). */
final class RestRegistryConfig {

    private static final Logger LOG = LoggerFactory.getLogger(RestRegistryConfig.class);

    private RestRegistryConfig() {
    }

    static RestClientSettings settings(Map<String, ?> configs) {
        List<URI> urls = new ArrayList<>();
        String urlUserInfo = null;
        for (String part : string(configs, SerdeConfig.SCHEMA_REGISTRY_URL).split(",")) {
            if (part.isBlank()) {
                continue;
            }
            URI url = parseUrl(part.trim());
            if (url.getRawUserInfo() != null && urlUserInfo == null) {
                urlUserInfo = url.getUserInfo();
            }
            urls.add(withoutUserInfo(url));
        }
        try {
            return new RestClientSettings(urls,
                    intValue(configs, SerdeConfig.MAX_ATTEMPTS, RestClientSettings.DEFAULT_MAX_ATTEMPTS),
                    millis(configs, SerdeConfig.REQUEST_TIMEOUT_MS, RestClientSettings.DEFAULT_REQUEST_TIMEOUT),
                    millis(configs, SerdeConfig.RETRY_BACKOFF_MS, RestClientSettings.DEFAULT_BACKOFF_INITIAL),
                    millis(configs, SerdeConfig.RETRY_BACKOFF_MAX_MS, RestClientSettings.DEFAULT_BACKOFF_MAX),
                    millis(configs, SerdeConfig.LATEST_CACHE_TTL_MS, RestClientSettings.DEFAULT_LATEST_CACHE_TTL),
                    basicAuth(configs, urlUserInfo), sslContext(configs));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid schema registry client settings: " + e.getMessage());
        }
    }

    private static Optional<BasicAuth> basicAuth(Map<String, ?> configs, String urlUserInfo) {
        String source = string(configs, SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE).toUpperCase(Locale.ROOT);
        String userInfo = string(configs, SerdeConfig.BASIC_AUTH_USER_INFO);
        switch (source.isEmpty() ? "URL" : source) {
            case "USER_INFO" -> {
                if (userInfo.isEmpty()) {
                    throw new ConfigException(SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE + " is USER_INFO but "
                            + SerdeConfig.BASIC_AUTH_USER_INFO + " is not set");
                }
                return Optional.of(BasicAuth.fromUserInfo(userInfo));
            }
            case "URL" -> {
                if (!userInfo.isEmpty()) {
                    LOG.warn("{} is set but {} is URL, so it is not sent; set the source to USER_INFO to use it",
                            SerdeConfig.BASIC_AUTH_USER_INFO, SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE);
                }
                return urlUserInfo == null ? Optional.empty() : Optional.of(BasicAuth.fromUserInfo(urlUserInfo));
            }
            default -> throw new ConfigException(SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE, source,
                    "supported: URL, USER_INFO");
        }
    }

    private static Optional<SSLContext> sslContext(Map<String, ?> configs) {
        StoreFile truststore = store(configs, SerdeConfig.SSL_TRUSTSTORE_LOCATION, SerdeConfig.SSL_TRUSTSTORE_TYPE,
                SerdeConfig.SSL_TRUSTSTORE_PASSWORD);
        StoreFile keystore = store(configs, SerdeConfig.SSL_KEYSTORE_LOCATION, SerdeConfig.SSL_KEYSTORE_TYPE,
                SerdeConfig.SSL_KEYSTORE_PASSWORD);
        if (truststore == null && keystore == null) {
            return Optional.empty();
        }
        String keyPassword = string(configs, SerdeConfig.SSL_KEY_PASSWORD);
        return Optional.of(RegistryTls.sslContext(truststore, keystore,
                keyPassword.isEmpty() ? null : keyPassword.toCharArray()));
    }

    private static StoreFile store(Map<String, ?> configs, String locationKey, String typeKey, String passwordKey) {
        String location = string(configs, locationKey);
        if (location.isEmpty()) {
            return null;
        }
        String password = string(configs, passwordKey);
        return new StoreFile(Path.of(location), string(configs, typeKey), password.isEmpty() ? null : password.toCharArray());
    }

    private static URI parseUrl(String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            // The value may hold user:password@, so the message names the setting, not the value.
            throw new ConfigException(SerdeConfig.SCHEMA_REGISTRY_URL + " holds an entry that is not a URL ("
                    + e.getReason() + " at index " + e.getIndex() + ")");
        }
    }

    private static URI withoutUserInfo(URI url) {
        try {
            return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), null, null);
        } catch (URISyntaxException e) {
            throw new ConfigException(SerdeConfig.SCHEMA_REGISTRY_URL + " holds an entry that is not a URL ("
                    + e.getReason() + ")");
        }
    }

    private static String string(Map<String, ?> configs, String key) {
        Object value = configs.get(key);
        if (value instanceof org.apache.kafka.common.config.types.Password password) {
            return password.value().trim();
        }
        return value == null ? "" : value.toString().trim();
    }

    private static int intValue(Map<String, ?> configs, String key, int fallback) {
        String text = string(configs, key);
        try {
            return text.isEmpty() ? fallback : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(key, text, "expected an integer");
        }
    }

    private static Duration millis(Map<String, ?> configs, String key, Duration fallback) {
        String text = string(configs, key);
        try {
            return text.isEmpty() ? fallback : Duration.ofMillis(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw new ConfigException(key, text, "expected milliseconds as an integer");
        }
    }
}
