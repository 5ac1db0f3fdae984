package io.hcwatch.registry;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * How {@link RestSchemaRegistryClient} reaches a registry.
 *
 * @param baseUrls        tried in turn; each may carry a path prefix (Apicurio's {@code /apis/ccompat/v7})
 * @param maxAttempts     tries of one call, across all base URLs, when it fails with 5xx, 429 or a network error
 * @param requestTimeout  bound of one HTTP exchange, connecting included
 * @param backoffInitial  wait before the first repeated try of a URL; doubles per retry, with jitter
 * @param backoffMax      cap of that wait
 * @param latestCacheTtl  how long a subject's latest version is reused before asking again
 */
public record RestClientSettings(List<URI> baseUrls, int maxAttempts, Duration requestTimeout,
                                 Duration backoffInitial, Duration backoffMax, Duration latestCacheTtl,
                                 Optional<BasicAuth> basicAuth, Optional<SSLContext> sslContext) {

    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_BACKOFF_INITIAL = Duration.ofMillis(100);
    public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofSeconds(5);
    public static final Duration DEFAULT_LATEST_CACHE_TTL = Duration.ofSeconds(30);

    public RestClientSettings {
        if (baseUrls == null || baseUrls.isEmpty()) {
            throw new IllegalArgumentException("no registry base URL");
        }
        baseUrls = baseUrls.stream().map(RestClientSettings::normalize).toList();
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
        }
        requirePositive(requestTimeout, "request timeout");
        requirePositive(backoffInitial, "retry backoff");
        requirePositive(backoffMax, "retry backoff max");
        Objects.requireNonNull(latestCacheTtl, "latest cache ttl");
        basicAuth = Objects.requireNonNullElse(basicAuth, Optional.empty());
        sslContext = Objects.requireNonNullElse(sslContext, Optional.empty());
    }

    /** Default settings for {@code urls}: no credentials, the JVM's default TLS trust. */
    public static RestClientSettings of(URI... urls) {
        return new RestClientSettings(List.of(urls), DEFAULT_MAX_ATTEMPTS, DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_BACKOFF_INITIAL, DEFAULT_BACKOFF_MAX, DEFAULT_LATEST_CACHE_TTL, Optional.empty(), Optional.empty());
    }

    public RestClientSettings withRetries(int attempts, Duration initial, Duration max) {
        return new RestClientSettings(baseUrls, attempts, requestTimeout, initial, max, latestCacheTtl, basicAuth, sslContext);
    }

    public RestClientSettings withRequestTimeout(Duration timeout) {
        return new RestClientSettings(baseUrls, maxAttempts, timeout, backoffInitial, backoffMax, latestCacheTtl, basicAuth, sslContext);
    }

    public RestClientSettings withLatestCacheTtl(Duration ttl) {
        return new RestClientSettings(baseUrls, maxAttempts, requestTimeout, backoffInitial, backoffMax, ttl, basicAuth, sslContext);
    }

    public RestClientSettings withBasicAuth(BasicAuth auth) {
        return new RestClientSettings(baseUrls, maxAttempts, requestTimeout, backoffInitial, backoffMax, latestCacheTtl,
                Optional.of(auth), sslContext);
    }

    public RestClientSettings withSslContext(SSLContext context) {
        return new RestClientSettings(baseUrls, maxAttempts, requestTimeout, backoffInitial, backoffMax, latestCacheTtl,
                basicAuth, Optional.of(context));
    }

    private static URI normalize(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw new IllegalArgumentException("registry URL must be http(s)://host[:port][/path], got scheme '"
                    + scheme + "'");
        }
        if (url.getRawUserInfo() != null) {
            // Credentials travel in BasicAuth only, so no URL the client prints can carry them.
            throw new IllegalArgumentException("registry URL must not carry credentials; pass them as BasicAuth");
        }
        String text = url.toString();
        return URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    }

    private static void requirePositive(Duration duration, String what) {
        if (duration == null || duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive, got " + duration);
        }
    }
}
