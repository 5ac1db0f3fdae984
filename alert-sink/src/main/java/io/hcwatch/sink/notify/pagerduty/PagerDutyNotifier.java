package io.hcwatch.sink.notify.pagerduty;

import io.hcwatch.retry.RateLimiter;
import io.hcwatch.retry.Sleeper;
import io.hcwatch.sink.notify.DeliveryResult;
import io.hcwatch.sink.notify.HttpStatusPolicy;
import io.hcwatch.sink.notify.Notifier;
import io.hcwatch.sink.notify.Page;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Sends one alert to PagerDuty Events API v2 ({@code POST {endpoint}/v2/enqueue}).
 *
 * <p>PagerDuty documents about 120 events per minute per routing key over a sliding 60-second
 * window and drops what is over it with a 429, so each key gets a {@link RateLimiter} that keeps
 * this client under the limit instead of spending retries on 429s.
 */
public final class PagerDutyNotifier implements Notifier {

    /** Documented default in PagerDuty's "Events API Rate Limits". */
    public static final int DOCUMENTED_EVENTS_PER_MINUTE = 120;
    public static final String DEFAULT_ENDPOINT = "https://events.pagerduty.com";
    private static final int MAX_BODY_CHARS_KEPT = 4096;

    private final URI enqueueUri;
    private final Router router;
    private final PagerDutyEventEncoder encoder;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Sleeper sleeper;
    private final Map<RoutingKey, RateLimiter> buckets = new ConcurrentHashMap<>();
    private final Function<RoutingKey, RateLimiter> bucketFactory;

    public PagerDutyNotifier(Settings settings, Router router, Clock clock, Sleeper sleeper) {
        this.enqueueUri = enqueueUri(settings.endpoint());
        this.router = router;
        this.encoder = new PagerDutyEventEncoder(settings.client());
        this.requestTimeout = settings.requestTimeout();
        this.sleeper = sleeper;
        this.http = HttpClient.newBuilder()
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.bucketFactory = key -> RateLimiter.perWindow(settings.eventsPerMinute(), settings.burst(), Duration.ofMinutes(1), clock, sleeper);
    }

    /**
     * @param endpoint base URL; {@code /v2/enqueue} is appended
     * @param eventsPerMinute client-side cap per routing key, at most PagerDuty's documented limit
     * @param burst events a key may send at once before the cap's steady rate applies
     */
    public record Settings(String endpoint, String client, Duration requestTimeout, int eventsPerMinute, int burst) {
    }

    @Override
    public String name() {
        return "pagerduty";
    }

    @Override
    public DeliveryResult deliver(Page page) throws InterruptedException {
        RoutingKey key = router.keyFor(page);
        buckets.computeIfAbsent(key, bucketFactory).acquire();
        HttpRequest request = HttpRequest.newBuilder(enqueueUri)
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(encoder.encode(page, key)))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return HttpStatusPolicy.networkError(name(), e.getClass().getSimpleName(), key.redact(e.getMessage()));
        }
        return HttpStatusPolicy.classify(name(), response.statusCode(), key.redact(shortened(response.body())));
    }

    private static String shortened(String body) {
        if (body == null || body.length() <= MAX_BODY_CHARS_KEPT) {
            return body;
        }
        return body.substring(0, MAX_BODY_CHARS_KEPT) + "…";
    }

    private static URI enqueueUri(String endpoint) {
        String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        return URI.create(base + "/v2/enqueue");
    }
}
