package io.hcwatch.collect;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The counters every collector exports (Prometheus names in collectors/README.md). {@code host} is
 * the source a collector polls under the name it publishes it as.
 */
public final class CollectorMetrics {

    /** The values of {@code hcwatch_collector_publish_errors_total{reason}}. */
    static final List<String> PUBLISH_ERROR_REASONS = List.of("delivery", "unavailable", "serialize", "send");
    /** The values of {@code hcwatch_collector_objects_total{outcome}}. */
    static final List<String> OBJECT_OUTCOMES = List.of("delivered", "duplicate", "dead_lettered", "skipped", "retried");

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> up = new ConcurrentHashMap<>();
    private final Set<String> topics = ConcurrentHashMap.newKeySet();

    public CollectorMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** A poll that read and published; {@code hcwatch_collector_up{host}} turns 1. */
    public void pollSucceeded(String host, long durationNanos) {
        registry.counter("hcwatch.collector.polls", "host", host).increment();
        Timer.builder("hcwatch.collector.poll.duration").tag("host", host)
                .description("Time to read one host's stats (connect, commands, parse)")
                .register(registry).record(durationNanos, TimeUnit.NANOSECONDS);
        upGauge(host).set(1);
    }

    /** {@code hcwatch_collector_poll_errors_total{host,reason}}; {@code hcwatch_collector_up{host}} turns 0. */
    public void pollFailed(String host, String reason) {
        Counter.builder("hcwatch.collector.poll.errors").tags("host", host, "reason", reason)
                .description("Polls that failed, by reason; nothing was published for the host in that poll")
                .register(registry).increment();
        upGauge(host).set(0);
    }

    /** Registers a host before its first poll so dashboards show it from the start. */
    public void hostKnown(String host) {
        upGauge(host);
        registry.counter("hcwatch.collector.polls", "host", host);
    }

    public void reload(String host) {
        Counter.builder("hcwatch.collector.reloads").tag("host", host)
                .description("Reloads or restarts seen (pid changed or uptime went back); no deltas for that interval")
                .register(registry).increment();
    }

    public void counterReset(String host, String proxy) {
        Counter.builder("hcwatch.collector.counter.resets").tags("host", host, "proxy", proxy)
                .description("A proxy's counters went back without a reload (clear counters); no deltas for it that interval")
                .register(registry).increment();
    }

    public void published(String topic, long pollToAckNanos) {
        topicKnown(topic);
        Timer.builder("hcwatch.collector.publish.latency").tag("topic", topic)
                .description("From the start of the poll that produced a record to the broker's acknowledgement")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .distributionStatisticExpiry(Duration.ofMinutes(2))
                .register(registry).record(pollToAckNanos, TimeUnit.NANOSECONDS);
    }

    public void publishFailed(String topic, String reason) {
        topicKnown(topic);
        publishErrors(topic, reason).increment();
    }

    /**
     * Registers a topic's publish errors at 0 for every reason, as soon as the topic is known: an
     * alert rule's {@code increase()} cannot see a series' first sample, so a counter that first
     * appears at 1 would hide the first failure.
     */
    public void topicKnown(String topic) {
        if (topics.add(topic)) {
            PUBLISH_ERROR_REASONS.forEach(reason -> publishErrors(topic, reason));
        }
    }

    private Counter publishErrors(String topic, String reason) {
        return Counter.builder("hcwatch.collector.publish.errors").tags("topic", topic, "reason", reason)
                .description("Records not published; state records are sent again at the next poll")
                .register(registry);
    }

    /** Registers every log-object outcome at 0 (see {@link #topicKnown}), before the first object. */
    public void objectsKnown() {
        OBJECT_OUTCOMES.forEach(this::objects);
    }

    /** Registers {@link #lineDeadLettered} at 0 for a topic lines go to (see {@link #topicKnown}). */
    public void deadLetteredLinesKnown(String topic) {
        deadLetteredLines(topic);
    }

    /** {@code hcwatch_collector_dead_lettered_lines_total{topic}}: a line dead-lettered alone, the rest of its object delivered. */
    public void lineDeadLettered(String topic) {
        deadLetteredLines(topic).increment();
    }

    private Counter deadLetteredLines(String topic) {
        return Counter.builder("hcwatch.collector.dead.lettered.lines").tag("topic", topic)
                .description("Lines of log objects dead-lettered alone (over alb-logs.max-line-bytes); the rest of the object was delivered")
                .register(registry);
    }

    /** {@code hcwatch_collector_api_calls_total{api}}: one request sent to a cloud API (AWS). */
    public void apiCall(String api) {
        Counter.builder("hcwatch.collector.api.calls").tag("api", api)
                .description("Requests sent to a cloud API, by operation (each retry is one more)")
                .register(registry).increment();
    }

    /** {@code hcwatch_collector_api_throttles_total{api}}: a request the API refused for its rate. */
    public void apiThrottled(String api) {
        Counter.builder("hcwatch.collector.api.throttles").tag("api", api)
                .description("Requests a cloud API throttled (Throttling, ThrottlingException, HTTP 429 or 503 SlowDown)")
                .register(registry).increment();
    }

    /** {@code hcwatch_collector_api_errors_total{api,reason}}: a request that failed otherwise. */
    public void apiFailed(String api, String reason) {
        Counter.builder("hcwatch.collector.api.errors").tags("api", api, "reason", reason)
                .description("Requests to a cloud API that failed, by reason (throttles are counted apart)")
                .register(registry).increment();
    }

    /** {@code hcwatch_collector_objects_total{outcome}}: log objects named by event notifications, by what became of them. */
    public void object(String outcome) {
        objects(outcome).increment();
    }

    private Counter objects(String outcome) {
        return Counter.builder("hcwatch.collector.objects").tag("outcome", outcome)
                .description("Log objects from event notifications: delivered, duplicate, dead_lettered, skipped, retried")
                .register(registry);
    }

    /** {@code hcwatch_collector_lines_total{topic}}: log lines Kafka acknowledged. */
    public void lines(String topic, long count) {
        Counter.builder("hcwatch.collector.lines").tag("topic", topic)
                .description("Log lines published and acknowledged by Kafka")
                .register(registry).increment(count);
    }

    /** {@code hcwatch_collector_messages_total{outcome}}: queue messages, by what became of them. */
    public void message(String outcome) {
        Counter.builder("hcwatch.collector.messages").tag("outcome", outcome)
                .description("Queue messages: deleted (done), retried (left for redelivery), test_event, ignored, not_an_event")
                .register(registry).increment();
    }

    private AtomicInteger upGauge(String host) {
        return up.computeIfAbsent(host, h -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("hcwatch.collector.up", value, AtomicInteger::get).tag("host", h)
                    .description("1 when the last poll of the host succeeded")
                    .strongReference(true).register(registry);
            return value;
        });
    }
}
