package io.hcwatch.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.hcwatch.retry.ExponentialBackoff;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries one registry call over HTTP: tries the base URLs in turn, retries 5xx, 429 and
 * network failures with backoff, and turns any other answer that is not 2xx into a
 * {@link SchemaRegistryException} holding the registry's status, error code and message.
 */
final class RegistryHttpTransport {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpTransport.class);
    private static final int SNIPPET_CHARS = 200;

    private final RestClientSettings settings;
    private final HttpClient http;
    private final ExponentialBackoff backoff;
    private final UnaryOperator<String> redact;
    /** The base URL that answered last, so a dead first URL costs one failed try, not one per call. */
    private final AtomicInteger preferred = new AtomicInteger();

    RegistryHttpTransport(RestClientSettings settings) {
        this.settings = settings;
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.requestTimeout());
        settings.sslContext().ifPresent(builder::sslContext);
        this.http = builder.build();
        this.backoff = backoff(settings);
        this.redact = settings.basicAuth().<UnaryOperator<String>>map(auth -> auth::redact).orElse(UnaryOperator.identity());
    }

    JsonNode get(String path) {
        return send("GET", path, null);
    }

    JsonNode post(String path, JsonNode body) {
        return send("POST", path, body);
    }

    private JsonNode send(String method, String path, JsonNode body) {
        List<URI> urls = settings.baseUrls();
        int first = preferred.get();
        Set<Integer> tried = new HashSet<>();
        int retries = 0;
        SchemaRegistryException last = null;
        for (int attempt = 1; attempt <= settings.maxAttempts(); attempt++) {
            int index = (first + attempt - 1) % urls.size();
            if (!tried.add(index)) {
                pause(backoff.delay(++retries), method, path);
            }
            URI base = urls.get(index);
            try {
                HttpResponse<String> response = http.send(request(base, method, path, body),
                        HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    preferred.set(index);
                    return parse(method, base, path, response);
                }
                SchemaRegistryException error = errorOf(method, base, path, response);
                if (!isRetryable(status)) {
                    throw error;
                }
                last = error;
            } catch (IOException e) {
                last = new SchemaRegistryException(redact.apply(describe(method, base, path) + " failed: " + e), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException(describe(method, base, path) + " interrupted", e);
            }
            LOG.warn("{} (attempt {} of {})", last.getMessage(), attempt, settings.maxAttempts());
        }
        throw gaveUp(method, path, last);
    }

    /**
     * Whole milliseconds, at least one, and a cap below the first wait meaning "no growth": what
     * this client has always done with the settings {@link RestClientSettings} lets through.
     */
    private static ExponentialBackoff backoff(RestClientSettings settings) {
        Duration initial = Duration.ofMillis(Math.max(1, settings.backoffInitial().toMillis()));
        Duration max = Duration.ofMillis(Math.max(initial.toMillis(), settings.backoffMax().toMillis()));
        return new ExponentialBackoff(initial, max);
    }

    /** 429 is the one 4xx worth repeating: Confluent Cloud rate-limits every endpoint with it. */
    private static boolean isRetryable(int status) {
        return status >= 500 || status == 429;
    }

    private HttpRequest request(URI base, String method, String path, JsonNode body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(settings.requestTimeout())
                .header("Accept", RegistryProtocol.ACCEPT);
        settings.basicAuth().ifPresent(auth -> builder.header("Authorization", auth.headerValue()));
        if (body == null) {
            return builder.method(method, HttpRequest.BodyPublishers.noBody()).build();
        }
        return builder.header("Content-Type", RegistryProtocol.MEDIA_TYPE)
                .method(method, HttpRequest.BodyPublishers.ofString(body.toString()))
                .build();
    }

    private JsonNode parse(String method, URI base, String path, HttpResponse<String> response) {
        try {
            return RegistryProtocol.JSON.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new SchemaRegistryException(redact.apply(describe(method, base, path) + " answered HTTP "
                    + response.statusCode() + " with a body that is not JSON: " + snippet(response.body())), e);
        }
    }

    private SchemaRegistryException errorOf(String method, URI base, String path, HttpResponse<String> response) {
        int status = response.statusCode();
        int code = status;
        String message = "HTTP " + status + snippetSuffix(response.body());
        try {
            JsonNode json = RegistryProtocol.JSON.readTree(response.body());
            if (json != null && json.hasNonNull("error_code")) {
                code = json.get("error_code").asInt(status);
                message = json.path("message").asText(message);
            }
        } catch (JsonProcessingException notJson) {
            // A proxy or load balancer answered with HTML or text; the snippet already says what it was.
        }
        return new SchemaRegistryException(status, code, redact.apply(describe(method, base, path) + ": " + message));
    }

    private SchemaRegistryException gaveUp(String method, String path, SchemaRegistryException last) {
        String urls = settings.baseUrls().stream().map(URI::toString).collect(Collectors.joining(", "));
        String message = "gave up on " + method + " " + path + " after " + settings.maxAttempts()
                + " attempts against " + urls + "; last error: " + last.registryMessage();
        return last.status() < 0
                ? new SchemaRegistryException(message, last.getCause())
                : new SchemaRegistryException(last.status(), last.errorCode(), message, last);
    }

    private void pause(Duration delay, String method, String path) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException(method + " " + path + " interrupted while waiting to retry", e);
        }
    }

    private static String describe(String method, URI base, String path) {
        return method + " " + base + path;
    }

    private static String snippetSuffix(String body) {
        return body == null || body.isBlank() ? "" : ": " + snippet(body);
    }

    private static String snippet(String body) {
        String flat = body.strip().replaceAll("\\s+", " ");
        return flat.length() <= SNIPPET_CHARS ? flat : flat.substring(0, SNIPPET_CHARS) + "...";
    }
}
