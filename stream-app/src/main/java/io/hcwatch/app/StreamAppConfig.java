package io.hcwatch.app;

import io.hcwatch.cluster.ClientSecurity;
import io.hcwatch.cluster.ConfigProviders;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogFormats;
import io.hcwatch.parse.LogFormatException;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The stream app's configuration file (Java properties). Unknown keys are refused so a typo
 * cannot silently fall back to a default. Keys:
 * <ul>
 *   <li>{@code bootstrap.servers}, {@code schema.registry.url} (required), {@code application.id}</li>
 *   <li>{@code schema.registry.*}, {@code basic.auth.*}, {@code auto.register.schemas}: passed to the Avro serdes</li>
 *   <li>{@code topic.<alb|alb-health|haproxy|health|haproxy-stats|config|alerts|dlq>}: topic names</li>
 *   <li>{@code detect.<setting>}: any detector setting (README, "Configuration")</li>
 *   <li>{@code haproxy.log-format.<frontend>}, {@code haproxy.log-format}: the log-format an HAProxy
 *       frontend (or every other frontend) writes its traffic lines in, as haproxy.cfg gives it after
 *       {@code log-format}, or {@code httplog}, {@code httpslog}, {@code tcplog}, {@code clf}</li>
 *   <li>{@code security.protocol}, {@code sasl.*}, {@code ssl.*}: how every Kafka client reaches the
 *       cluster ({@link ClientSecurity}); {@code streams.} ones win</li>
 *   <li>{@code streams.<kafka streams or client config>}: passed to Kafka Streams as is</li>
 *   <li>{@code metrics.host}, {@code metrics.port}: the /metrics, /health, /ready endpoint ({@code -1}: off)</li>
 *   <li>{@code metrics.kafka.refresh.ms}: how often new Kafka client metrics (per-partition lag) are picked up</li>
 *   <li>{@code state.dir}</li>
 *   <li>{@code threads.max}: stream threads are the cores available, at most this many (unless
 *       {@code streams.num.stream.threads} sets them)</li>
 * </ul>
 * Any value may be a reference to a config provider's secret ({@code ${file:PATH:KEY}}, with
 * {@code config.providers}: {@link ConfigProviders}).
 */
public record StreamAppConfig(
        String bootstrapServers,
        String applicationId,
        Map<String, Object> serdeConfig,
        Topics topics,
        Settings settings,
        Map<String, Object> streamsOverrides,
        String metricsHost,
        int metricsPort,
        Duration kafkaMetricsRefresh,
        String stateDir,
        int maxThreads,
        HaproxyLogFormats logFormats) {

    private static final String LOG_FORMAT = "haproxy.log-format";
    private static final Set<String> PLAIN_KEYS = Set.of("bootstrap.servers", "schema.registry.url", "application.id",
            "auto.register.schemas", "metrics.host", "metrics.port", "metrics.kafka.refresh.ms", "state.dir", "threads.max");

    public static StreamAppConfig load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
        return from(p);
    }

    public static StreamAppConfig from(Properties file) {
        Properties p;
        try {
            p = ConfigProviders.resolve(file);
        } catch (ConfigProviders.ProviderException e) {
            throw new ConfigException(e.getMessage());
        }
        Set<String> unknown = new TreeSet<>();
        Map<String, Object> security = new LinkedHashMap<>();
        Map<String, String> detect = new LinkedHashMap<>();
        Map<String, Object> serde = new LinkedHashMap<>();
        Map<String, Object> streams = new LinkedHashMap<>();
        Map<String, String> logFormats = new LinkedHashMap<>();
        Topics topics = Topics.defaults();
        for (String key : p.stringPropertyNames()) {
            String value = p.getProperty(key).trim();
            if (key.equals(LOG_FORMAT) || key.startsWith(LOG_FORMAT + ".")) {
                logFormats.put(key.equals(LOG_FORMAT) ? "" : key.substring(LOG_FORMAT.length() + 1), value);
            } else if (key.startsWith("detect.")) {
                detect.put(key.substring("detect.".length()), value);
            } else if (key.startsWith("streams.")) {
                streams.put(key.substring("streams.".length()), value);
            } else if (ClientSecurity.isSecurityKey(key)) {
                security.put(key, value);
            } else if (key.startsWith("schema.registry.") || key.startsWith("basic.auth.") || key.equals("auto.register.schemas")) {
                serde.put(key, value);
            } else if (key.startsWith("topic.")) {
                topics = withTopic(topics, key, value);
            } else if (!PLAIN_KEYS.contains(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown config key" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown));
        }
        security.forEach(streams::putIfAbsent);
        Settings settings;
        try {
            settings = Settings.defaults().with(detect);
            io.hcwatch.alert.LifecycleSettings.from(settings);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("detect." + e.getMessage());
        }
        HaproxyLogFormats formats;
        try {
            formats = DeclaredLogFormats.of(logFormats);
        } catch (LogFormatException e) {
            throw new ConfigException(e.getMessage());
        }
        String bootstrap = required(p, "bootstrap.servers");
        required(p, "schema.registry.url");
        int port;
        try {
            port = Integer.parseInt(p.getProperty("metrics.port", "9403").trim());
        } catch (NumberFormatException e) {
            throw new ConfigException("metrics.port must be a port number, got " + p.getProperty("metrics.port"));
        }
        long refresh;
        try {
            refresh = Long.parseLong(p.getProperty("metrics.kafka.refresh.ms", "10000").trim());
        } catch (NumberFormatException e) {
            refresh = -1;
        }
        if (refresh < 100) {
            throw new ConfigException("metrics.kafka.refresh.ms must be a number of milliseconds >= 100, got "
                    + p.getProperty("metrics.kafka.refresh.ms"));
        }
        int maxThreads;
        try {
            maxThreads = Integer.parseInt(p.getProperty("threads.max", "8").trim());
        } catch (NumberFormatException e) {
            maxThreads = 0;
        }
        if (maxThreads < 1) {
            throw new ConfigException("threads.max must be a whole number >= 1, got " + p.getProperty("threads.max"));
        }
        return new StreamAppConfig(bootstrap, p.getProperty("application.id", "hcwatch").trim(), serde, topics, settings,
                streams, p.getProperty("metrics.host", "0.0.0.0").trim(), port, Duration.ofMillis(refresh),
                p.getProperty("state.dir"), maxThreads, formats);
    }

    /** Client settings and registry settings may hold passwords, so only their keys are shown. */
    @Override
    public String toString() {
        return "StreamAppConfig[bootstrapServers=" + bootstrapServers + ", applicationId=" + applicationId + ", serdeConfig="
                + serdeConfig.keySet() + ", topics=" + topics + ", streamsOverrides=" + streamsOverrides.keySet() + ", metrics="
                + metricsHost + ":" + metricsPort + ", stateDir=" + stateDir + ", maxThreads=" + maxThreads + ", logFormats=" + logFormats + "]";
    }

    private static Topics withTopic(Topics topics, String key, String value) {
        String name = key.substring("topic.".length());
        if (name.equals("alerts")) {
            return topics.withAlerts(value);
        }
        if (name.equals("dlq")) {
            return topics.withDeadLetters(value);
        }
        if (name.equals("incidents")) {
            return topics.withIncidents(value);
        }
        for (Source s : Source.values()) {
            if (s.id().equals(name)) {
                return topics.withInput(s, value);
            }
        }
        throw new ConfigException("unknown topic key " + key + " (topic.alb, topic.alb-health, topic.haproxy, topic.health,"
                + " topic.haproxy-stats, topic.config, topic.alerts, topic.incidents, topic.dlq)");
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new ConfigException("missing required config key " + key);
        }
        return v.trim();
    }
}
