package io.hcwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.Severity;
import java.io.PrintStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SinkConfigTest {

    private static Properties minimal() {
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", "localhost:9092");
        props.setProperty("schema.registry.url", "mock://config-test");
        return props;
    }

    @Test
    void fillsInTheDocumentedDefaults() {
        SinkConfig config = SinkConfig.from(minimal());

        assertThat(config.groupId()).isEqualTo("hcwatch-alert-sink");
        assertThat(config.alertsTopic()).isEqualTo("alerts");
        assertThat(config.deliver()).isEqualTo(SinkConfig.Deliver.INCIDENTS);
        assertThat(config.topic()).isEqualTo("incidents");
        assertThat(config.deadLetterTopic()).isEqualTo("alerts-dlq");
        assertThat(config.sinks()).containsExactly("pagerduty");
        assertThat(config.pagerDuty().endpoint()).isEqualTo("https://events.pagerduty.com");
        assertThat(config.pagerDuty().routingKeyEnv()).isEqualTo("PAGERDUTY_ROUTING_KEY");
        assertThat(config.pagerDuty().eventsPerMinute()).isEqualTo(120);
        assertThat(config.retry()).isEqualTo(new SinkConfig.Retry(Duration.ofSeconds(1), Duration.ofMinutes(1)));
        assertThat(config.metricsPort()).isEqualTo(9404);
    }

    @Test
    void deliverAlertsConsumesTheAlertsTopicAndAnythingElseIsRefusedNamingTheKey() {
        Properties props = minimal();
        props.setProperty("deliver", "alerts");
        props.setProperty("alerts.topic", "prod-alerts");
        assertThat(SinkConfig.from(props).topic()).isEqualTo("prod-alerts");

        props.setProperty("deliver", "pages");
        assertThatThrownBy(() -> SinkConfig.from(props)).isInstanceOf(SinkConfigException.class)
                .hasMessageContaining("deliver").hasMessageContaining("expected incidents or alerts, got 'pages'");
    }

    @Test
    void readsRoutesAndClientOverrides() {
        Properties props = minimal();
        props.setProperty("sinks", "pagerduty, stdout");
        props.setProperty("pagerduty.routes", "db");
        props.setProperty("pagerduty.route.db.types", "correlated_failure,zonal_failure");
        props.setProperty("pagerduty.route.db.severities", "critical");
        props.setProperty("pagerduty.route.db.target.group", "prod-db-*");
        props.setProperty("pagerduty.route.db.routing.key.env", "PD_DB_KEY");
        props.setProperty("kafka.security.protocol", "SSL");
        props.setProperty("kafka.consumer.max.poll.records", "50");
        props.setProperty("kafka.producer.linger.ms", "0");

        SinkConfig config = SinkConfig.from(props);

        assertThat(config.sinks()).containsExactly("pagerduty", "stdout");
        assertThat(config.pagerDuty().routes()).containsExactly(new SinkConfig.RouteConfig("db",
                Set.of("correlated_failure", "zonal_failure"), Set.of(Severity.critical), "prod-db-*", "PD_DB_KEY"));
        assertThat(config.consumerOverrides()).isEqualTo(Map.of("security.protocol", "SSL", "max.poll.records", "50"));
        assertThat(config.producerOverrides()).isEqualTo(Map.of("security.protocol", "SSL", "linger.ms", "0"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "bootstrap.servers          |                 | config key 'bootstrap.servers': is required",
            "sinks                      | email           | config key 'sinks': unknown sink 'email', expected pagerduty and/or stdout",
            "retry.initial.backoff.ms   | 0               | config key 'retry.initial.backoff.ms': expected milliseconds >= 1, got 0",
            "retry.max.backoff.ms       | 1s              | config key 'retry.max.backoff.ms': expected a whole number of milliseconds, got '1s'",
            "delivery.threads           | four            | config key 'delivery.threads': expected an integer, got 'four'",
            "metrics.port               | 70000           | config key 'metrics.port': expected 0-65535 (0 = any free port) or -1 (off), got 70000",
            "pagerduty.endpoint         | events.pagerduty.com | config key 'pagerduty.endpoint': expected an http(s) URL like https://events.pagerduty.com, got 'events.pagerduty.com'",
            "pagerduty.rate.limit.burst | 500             | config key 'pagerduty.rate.limit.burst': must be below pagerduty.rate.limit.per.minute (120), got 500",
            "pagerduty.rate.limit.per.minte | 60          | config key 'pagerduty.rate.limit.per.minte': unknown key (see alert-sink/README.md for the keys)",
            "pagerduty.route.db.types   | client_flood    | config key 'pagerduty.route.db.types': route 'db' is not listed in pagerduty.routes",
    })
    void aBadValueFailsWithOneLineNamingTheKey(String key, String value, String message) {
        Properties props = minimal();
        props.setProperty(key, value == null ? "" : value);

        assertThatThrownBy(() -> SinkConfig.from(props)).isInstanceOf(SinkConfigException.class).hasMessage(message);
    }

    @Test
    void theRetryLimitsOfOlderVersionsAreAcceptedAndEachNamedInAWarning() {
        Properties props = minimal();
        props.setProperty("retry.max.elapsed.ms", "600000");
        props.setProperty("retry.max.attempts", "five");

        SinkConfig config = SinkConfig.from(props);

        assertThat(config.ignoredKeyWarnings()).containsExactly(
                "config key 'retry.max.attempts': no longer used and ignored: retryable failures (429, 5xx, network)"
                        + " are retried until they succeed; remove it (alert-sink/README.md)",
                "config key 'retry.max.elapsed.ms': no longer used and ignored: retryable failures (429, 5xx, network)"
                        + " are retried until they succeed; remove it (alert-sink/README.md)");
        assertThat(SinkConfig.from(minimal()).ignoredKeyWarnings()).isEmpty();
    }

    @Test
    void aRouteNeedsTheVariableThatHoldsItsKey() {
        Properties props = minimal();
        props.setProperty("pagerduty.routes", "edge");
        props.setProperty("pagerduty.route.edge.types", "client_flood");

        assertThatThrownBy(() -> SinkConfig.from(props)).hasMessage("config key 'pagerduty.route.edge.routing.key.env': is required");
    }

    @Test
    void aMissingRoutingKeyFailsAtConstructionNamingTheConfigKeyAndTheVariable() {
        assertThatThrownBy(() -> new SinkApp(minimal(), Map.<String, String>of()::get, p -> null,
                new PrintStream(new ByteArrayOutputStream(), true)))
                .isInstanceOf(SinkConfigException.class)
                .hasMessage("config key 'pagerduty.routing.key.env': no PagerDuty routing key: set PAGERDUTY_ROUTING_KEY or PAGERDUTY_ROUTING_KEY_FILE");
    }

    @Test
    void theStdoutSinkAloneNeedsNoRoutingKey() {
        Properties props = minimal();
        props.setProperty("sinks", "stdout");

        assertThat(new SinkApp(props, Map.<String, String>of()::get, p -> null, new PrintStream(new ByteArrayOutputStream(), true))
                .config().stdoutEnabled()).isTrue();
    }

    @Test
    void theSecuritySettingsGoToBothClientsUnderTheirKafkaOverridesWithSecretsFromAProvider(@TempDir Path dir) throws Exception {
        Path secrets = Files.writeString(dir.resolve("kafka.properties"), "password=dlq-Pa55\n");
        Properties props = minimal();
        props.setProperty("config.providers", "file");
        props.setProperty("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        props.setProperty("security.protocol", "SASL_SSL");
        props.setProperty("sasl.mechanism", "PLAIN");
        props.setProperty("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"sink\""
                + " password=\"${file:" + secrets + ":password}\";");
        props.setProperty("kafka.consumer.sasl.mechanism", "SCRAM-SHA-512");
        props.setProperty("basic.auth.user.info", "sink:${file:" + secrets + ":password}");

        SinkConfig config = SinkConfig.from(props);

        assertThat(config.consumerOverrides()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"sink\" password=\"dlq-Pa55\";");
        assertThat(config.producerOverrides()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN")
                .containsEntry("sasl.jaas.config", config.consumerOverrides().get("sasl.jaas.config"));
        assertThat(config.serdeConfig()).containsEntry("basic.auth.user.info", "sink:dlq-Pa55");
        assertThat(config.toString()).doesNotContain("dlq-Pa55");
    }

    @Test
    void aReferenceToAnUndeclaredProviderIsRefusedNamingTheKey() {
        Properties props = minimal();
        props.setProperty("sasl.jaas.config", "x password=\"${env:KAFKA_PASSWORD}\";");

        assertThatThrownBy(() -> SinkConfig.from(props))
                .isInstanceOf(SinkConfigException.class)
                .hasMessage("config key 'sasl.jaas.config': refers to ${env:KAFKA_PASSWORD}, but config.providers does not declare"
                        + " a provider 'env'");
    }
}
