package io.hcwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.RestClientSettings;
import io.hcwatch.registry.RestSchemaRegistryClient;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RestRegistryConfigTest {

    @Test
    void severalUrlsBecomeBaseUrlsInOrderWithTheirPathPrefixes() {
        RestClientSettings settings = RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL,
                "http://sr-1:8081, https://apicurio:8443/apis/ccompat/v7/"));

        assertThat(settings.baseUrls()).containsExactly(
                URI.create("http://sr-1:8081"), URI.create("https://apicurio:8443/apis/ccompat/v7"));
        assertThat(settings.maxAttempts()).isEqualTo(RestClientSettings.DEFAULT_MAX_ATTEMPTS);
    }

    @Test
    void attemptsTimeoutsAndTimeToLiveAreRead() {
        RestClientSettings settings = RestRegistryConfig.settings(Map.of(
                SerdeConfig.SCHEMA_REGISTRY_URL, "http://sr:8081",
                SerdeConfig.MAX_ATTEMPTS, 2,
                SerdeConfig.REQUEST_TIMEOUT_MS, "1500",
                SerdeConfig.RETRY_BACKOFF_MS, "20",
                SerdeConfig.RETRY_BACKOFF_MAX_MS, "400",
                SerdeConfig.LATEST_CACHE_TTL_MS, "0"));

        assertThat(settings.maxAttempts()).isEqualTo(2);
        assertThat(settings.requestTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings.backoffInitial()).isEqualTo(Duration.ofMillis(20));
        assertThat(settings.backoffMax()).isEqualTo(Duration.ofMillis(400));
        assertThat(settings.latestCacheTtl()).isZero();
    }

    @Test
    void credentialsInTheUrlAreUsedByDefaultAndStrippedFromIt() {
        RestClientSettings settings = RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL,
                "https://svc:pa55@sr.example:8081"));

        assertThat(settings.baseUrls()).containsExactly(URI.create("https://sr.example:8081"));
        assertThat(settings.basicAuth()).isPresent();
        assertThat(settings.basicAuth().get().redact("svc:pa55")).isEqualTo("[redacted]");
    }

    @Test
    void userInfoCredentialsAreSentOnlyWhenTheSourceSaysSo() {
        Map<String, Object> base = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://sr:8081",
                SerdeConfig.BASIC_AUTH_USER_INFO, "svc:pa55");

        assertThat(RestRegistryConfig.settings(base).basicAuth()).isEmpty();
        assertThat(RestRegistryConfig.settings(with(base, SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO"))
                .basicAuth()).isPresent();
    }

    @Test
    void userInfoAsSourceWithoutCredentialsIsAConfigError() {
        assertThatThrownBy(() -> RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://sr:8081",
                SerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(SerdeConfig.BASIC_AUTH_USER_INFO + " is not set");
    }

    @Test
    void aBadUrlIsAConfigErrorThatDoesNotRepeatTheCredentials() {
        assertThatThrownBy(() -> RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL,
                "ftp://svc:pa55@sr:21")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("http(s)://")
                .hasMessageNotContaining("pa55");
        assertThatThrownBy(() -> RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL,
                "http://svc:pa55@sr:80 81")))
                .isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("pa55");
    }

    @Test
    void aNonNumericAttemptCountIsAConfigError() {
        assertThatThrownBy(() -> RestRegistryConfig.settings(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://sr:8081",
                SerdeConfig.MAX_ATTEMPTS, "many")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(SerdeConfig.MAX_ATTEMPTS);
    }

    @Test
    void serdesGetARestClientForHttpUrlsAndTheSharedInMemoryOneForMock() {
        assertThat(SchemaRegistries.fromConfig(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://sr:8081")))
                .isInstanceOf(RestSchemaRegistryClient.class);
        assertThat(SchemaRegistries.fromConfig(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://config-test")))
                .isSameAs(InMemorySchemaRegistry.scope("config-test"));
        InMemorySchemaRegistry.dropScope("config-test");
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> copy = new java.util.HashMap<>(base);
        copy.put(key, value);
        return copy;
    }
}
