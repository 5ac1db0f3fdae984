package io.hcwatch.sink;

import io.hcwatch.avro.v1.Severity;
import io.hcwatch.cluster.ClientSecurity;
import io.hcwatch.cluster.ConfigProviders;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The sink's settings, read from a {@link Properties} file; README lists every key. Unknown keys
 * are refused (outside the pass-through prefixes) so a misspelt setting fails at start instead of
 * being silently ignored on the path that pages people. Any value may be a reference to a config
 * provider's secret ({@link ConfigProviders}); {@code security.protocol}, {@code sasl.*} and
 * {@code ssl.*} go to both Kafka clients ({@link ClientSecurity}).
 */
public record SinkConfig(
        String bootstrapServers,
        String groupId,
        String alertsTopic,
        String incidentsTopic,
        Deliver deliver,
        String deadLetterTopic,
        Set<String> sinks,
        PagerDuty pagerDuty,
        Retry retry,
        int deliveryThreads,
        Duration shutdownGrace,
        Duration failureBackoff,
        String metricsHost,
        int metricsPort,
        Duration kafkaMetricsRefresh,
        Map<String, Object> consumerOverrides,
        Map<String, Object> producerOverrides,
        Map<String, Object> serdeConfig,
        List<String> ignoredKeys) {

    public static final String SINK_PAGERDUTY = "pagerduty";
    public static final String SINK_STDOUT = "stdout";
    public static final int METRICS_OFF = -1;

    private static final String KAFKA_PREFIX = "kafka.";
    private static final String CONSUMER_PREFIX = "kafka.consumer.";
    private static final String PRODUCER_PREFIX = "kafka.producer.";
    private static final String ROUTE_PREFIX = "pagerduty.route.";
    private static final Set<String> ROUTE_FIELDS = Set.of("types", "severities", "target.group", "routing.key.env");
    private static final Set<String> KNOWN_KEYS = Set.of(
            "bootstrap.servers", "schema.registry.url", "group.id", "alerts.topic", "incidents.topic", "deliver", "dlq.topic", "sinks",
            "pagerduty.endpoint", "pagerduty.client", "pagerduty.routing.key.env", "pagerduty.routes",
            "pagerduty.request.timeout.ms", "pagerduty.rate.limit.per.minute", "pagerduty.rate.limit.burst",
            "retry.initial.backoff.ms", "retry.max.backoff.ms",
            "delivery.threads", "shutdown.grace.ms", "failure.backoff.ms", "metrics.host", "metrics.port",
            "metrics.kafka.refresh.ms", "auto.register.schemas");

    /**
     * Keys of older versions that no longer mean anything. They are accepted, so an upgrade cannot
     * leave the paging path stopped on a config that used to work, and named in a warning at start.
     */
    private static final Map<String, String> IGNORED_KEYS = Map.of(
            "retry.max.attempts", "retryable failures (429, 5xx, network) are retried until they succeed",
            "retry.max.elapsed.ms", "retryable failures (429, 5xx, network) are retried until they succeed");

    public record PagerDuty(String endpoint, String client, String routingKeyEnv, List<RouteConfig> routes,
            Duration requestTimeout, int eventsPerMinute, int burst) {
    }

    /** A route as configured: matchers and the name of the variable that holds its key (never the key). */
    public record RouteConfig(String name, Set<String> types, Set<Severity> severities, String targetGroupGlob,
            String routingKeyEnv) {
    }

    public record Retry(Duration initialBackoff, Duration maxBackoff) {
    }

    /** What the sink pages from: incidents (one page per failure story, the default) or every alert notification. */
    public enum Deliver {
        INCIDENTS, ALERTS;

        static Deliver of(String value) {
            for (Deliver d : values()) {
                if (d.name().toLowerCase(Locale.ROOT).equals(value)) {
                    return d;
                }
            }
            throw new SinkConfigException("deliver", "expected incidents or alerts, got '" + value + "'");
        }
    }

    public static SinkConfig from(Properties file) {
        Properties properties;
        try {
            properties = ConfigProviders.resolve(file);
        } catch (ConfigProviders.ProviderException e) {
            throw new SinkConfigException(e.key(), e.problem());
        }
        Reader in = new Reader(properties);
        in.refuseUnknownKeys();
        Set<String> sinks = in.list("sinks", SINK_PAGERDUTY);
        for (String sink : sinks) {
            if (!sink.equals(SINK_PAGERDUTY) && !sink.equals(SINK_STDOUT)) {
                throw new SinkConfigException("sinks", "unknown sink '" + sink + "', expected pagerduty and/or stdout");
            }
        }
        if (sinks.isEmpty()) {
            throw new SinkConfigException("sinks", "name at least one of pagerduty, stdout");
        }
        Retry retry = new Retry(
                in.millis("retry.initial.backoff.ms", 1_000, 1),
                in.millis("retry.max.backoff.ms", 60_000, 1));
        if (retry.maxBackoff().compareTo(retry.initialBackoff()) < 0) {
            throw new SinkConfigException("retry.max.backoff.ms", "must be >= retry.initial.backoff.ms");
        }
        int metricsPort = in.integer("metrics.port", 9404, METRICS_OFF);
        if (metricsPort > 65535) {
            throw new SinkConfigException("metrics.port", "expected 0-65535 (0 = any free port) or -1 (off), got " + metricsPort);
        }
        return new SinkConfig(
                in.required("bootstrap.servers"),
                in.text("group.id", "hcwatch-alert-sink"),
                in.text("alerts.topic", "alerts"),
                in.text("incidents.topic", "incidents"),
                Deliver.of(in.text("deliver", "incidents")),
                in.text("dlq.topic", "alerts-dlq"),
                sinks,
                pagerDuty(in),
                retry,
                in.integer("delivery.threads", 4, 1),
                in.millis("shutdown.grace.ms", 10_000, 0),
                in.millis("failure.backoff.ms", 5_000, 0),
                in.text("metrics.host", "0.0.0.0"),
                metricsPort,
                in.millis("metrics.kafka.refresh.ms", 10_000, 100),
                in.withPrefix(CONSUMER_PREFIX),
                in.withPrefix(PRODUCER_PREFIX),
                serdeConfig(in),
                in.ignoredKeys());
    }

    /** One line per ignored key of an older version, naming the key: what the sink logs as a warning at start. */
    public List<String> ignoredKeyWarnings() {
        return ignoredKeys.stream()
                .map(key -> "config key '" + key + "': no longer used and ignored: " + IGNORED_KEYS.get(key)
                        + "; remove it (alert-sink/README.md)")
                .toList();
    }

    /** Client overrides and registry settings may hold passwords, so only their keys are shown. */
    @Override
    public String toString() {
        return "SinkConfig[bootstrapServers=" + bootstrapServers + ", groupId=" + groupId + ", alertsTopic=" + alertsTopic
                + ", incidentsTopic=" + incidentsTopic + ", deliver=" + deliver + ", deadLetterTopic=" + deadLetterTopic + ", sinks=" + sinks + ", pagerDuty=" + pagerDuty
                + ", retry=" + retry + ", deliveryThreads=" + deliveryThreads + ", metrics=" + metricsHost + ":" + metricsPort
                + ", consumerOverrides=" + consumerOverrides.keySet() + ", producerOverrides=" + producerOverrides.keySet()
                + ", serdeConfig=" + serdeConfig.keySet() + "]";
    }

    /** The topic the sink consumes: incidents.topic, or alerts.topic with deliver=alerts. */
    public String topic() {
        return deliver == Deliver.INCIDENTS ? incidentsTopic : alertsTopic;
    }

    public boolean pagerDutyEnabled() {
        return sinks.contains(SINK_PAGERDUTY);
    }

    public boolean stdoutEnabled() {
        return sinks.contains(SINK_STDOUT);
    }

    private static PagerDuty pagerDuty(Reader in) {
        String endpoint = in.text("pagerduty.endpoint", "https://events.pagerduty.com");
        try {
            URI uri = URI.create(endpoint);
            if (uri.getHost() == null || !(uri.getScheme().equals("https") || uri.getScheme().equals("http"))) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            throw new SinkConfigException("pagerduty.endpoint", "expected an http(s) URL like https://events.pagerduty.com, got '" + endpoint + "'");
        }
        List<RouteConfig> routes = new ArrayList<>();
        for (String name : in.list("pagerduty.routes", "")) {
            String prefix = ROUTE_PREFIX + name + ".";
            Set<Severity> severities = new LinkedHashSet<>();
            for (String severity : in.list(prefix + "severities", "")) {
                try {
                    severities.add(Severity.valueOf(severity.toLowerCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new SinkConfigException(prefix + "severities", "unknown severity '" + severity
                            + "', expected critical, error, warning or info");
                }
            }
            String glob = in.text(prefix + "target.group", "");
            routes.add(new RouteConfig(name, in.list(prefix + "types", ""), severities, glob.isEmpty() ? null : glob,
                    in.required(prefix + "routing.key.env")));
        }
        int perMinute = in.integer("pagerduty.rate.limit.per.minute", 120, 2);
        int burst = in.integer("pagerduty.rate.limit.burst", 20, 1);
        if (burst >= perMinute) {
            throw new SinkConfigException("pagerduty.rate.limit.burst", "must be below pagerduty.rate.limit.per.minute ("
                    + perMinute + "), got " + burst);
        }
        return new PagerDuty(endpoint, in.text("pagerduty.client", "hcwatch"),
                in.text("pagerduty.routing.key.env", "PAGERDUTY_ROUTING_KEY"), routes,
                in.millis("pagerduty.request.timeout.ms", 10_000, 1), perMinute, burst);
    }

    /** The serdes read the registry URL and its credentials under the names Confluent's serializers use. */
    private static Map<String, Object> serdeConfig(Reader in) {
        Map<String, Object> serde = new HashMap<>();
        serde.put("schema.registry.url", in.required("schema.registry.url"));
        for (String key : in.properties.stringPropertyNames()) {
            if (key.startsWith("schema.registry.") || key.startsWith("basic.auth.") || key.equals("auto.register.schemas")) {
                serde.put(key, in.properties.getProperty(key).strip());
            }
        }
        return serde;
    }

    private static final class Reader {

        private final Properties properties;

        Reader(Properties properties) {
            this.properties = properties;
        }

        void refuseUnknownKeys() {
            List<String> declaredRoutes = Arrays.stream(properties.getProperty("pagerduty.routes", "").split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList();
            for (String key : properties.stringPropertyNames()) {
                if (KNOWN_KEYS.contains(key) || IGNORED_KEYS.containsKey(key) || key.startsWith(KAFKA_PREFIX)
                        || key.startsWith("schema.registry.") || key.startsWith("basic.auth.") || ClientSecurity.isSecurityKey(key)) {
                    continue;
                }
                if (key.startsWith(ROUTE_PREFIX)) {
                    String rest = key.substring(ROUTE_PREFIX.length());
                    int dot = rest.indexOf('.');
                    String route = dot < 0 ? rest : rest.substring(0, dot);
                    if (!declaredRoutes.contains(route)) {
                        throw new SinkConfigException(key, "route '" + route + "' is not listed in pagerduty.routes");
                    }
                    if (dot >= 0 && ROUTE_FIELDS.contains(rest.substring(dot + 1))) {
                        continue;
                    }
                    throw new SinkConfigException(key, "unknown route setting, expected one of " + ROUTE_FIELDS);
                }
                throw new SinkConfigException(key, "unknown key (see alert-sink/README.md for the keys)");
            }
        }

        List<String> ignoredKeys() {
            return properties.stringPropertyNames().stream().filter(IGNORED_KEYS::containsKey).sorted().toList();
        }

        String required(String key) {
            String value = text(key, "");
            if (value.isEmpty()) {
                throw new SinkConfigException(key, "is required");
            }
            return value;
        }

        String text(String key, String defaultValue) {
            return properties.getProperty(key, defaultValue).strip();
        }

        Set<String> list(String key, String defaultValue) {
            Set<String> values = new LinkedHashSet<>();
            for (String value : text(key, defaultValue).split(",")) {
                if (!value.isBlank()) {
                    values.add(value.strip());
                }
            }
            return values;
        }

        int integer(String key, int defaultValue, int min) {
            String value = text(key, String.valueOf(defaultValue));
            try {
                int parsed = Integer.parseInt(value);
                if (parsed < min) {
                    throw new SinkConfigException(key, "expected an integer >= " + min + ", got " + parsed);
                }
                return parsed;
            } catch (NumberFormatException e) {
                throw new SinkConfigException(key, "expected an integer, got '" + value + "'");
            }
        }

        Duration millis(String key, long defaultValue, long min) {
            String value = text(key, String.valueOf(defaultValue));
            try {
                long parsed = Long.parseLong(value);
                if (parsed < min) {
                    throw new SinkConfigException(key, "expected milliseconds >= " + min + ", got " + parsed);
                }
                return Duration.ofMillis(parsed);
            } catch (NumberFormatException e) {
                throw new SinkConfigException(key, "expected a whole number of milliseconds, got '" + value + "'");
            }
        }

        /**
         * The security settings and those under {@code kafka.} go to both clients; {@code prefix} ones to one
         * client; the more specific wins.
         */
        Map<String, Object> withPrefix(String prefix) {
            Map<String, Object> out = new HashMap<>();
            for (String key : properties.stringPropertyNames()) {
                if (ClientSecurity.isSecurityKey(key)) {
                    out.put(key, properties.getProperty(key).strip());
                }
            }
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith(KAFKA_PREFIX) && !key.startsWith(CONSUMER_PREFIX) && !key.startsWith(PRODUCER_PREFIX)) {
                    out.put(key.substring(KAFKA_PREFIX.length()), properties.getProperty(key).strip());
                }
            }
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith(prefix)) {
                    out.put(key.substring(prefix.length()), properties.getProperty(key).strip());
                }
            }
            return out;
        }
    }
}
