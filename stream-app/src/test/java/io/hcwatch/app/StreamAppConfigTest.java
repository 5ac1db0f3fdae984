package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamAppConfigTest {

    private static final String SECRET = "kafka-Pa55-" + StreamAppConfigTest.class.hashCode();

    @TempDir
    Path dir;

    private Properties secured() throws Exception {
        Path secrets = Files.writeString(dir.resolve("secrets.properties"), "kafka.password=" + SECRET
                + "\nregistry.user.info=hcwatch:sr-" + SECRET + "\n");
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "b-1.msk:9096");
        p.setProperty("schema.registry.url", "https://registry:8081");
        p.setProperty("config.providers", "file");
        p.setProperty("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        p.setProperty("security.protocol", "SASL_SSL");
        p.setProperty("sasl.mechanism", "SCRAM-SHA-512");
        p.setProperty("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"hcwatch\""
                + " password=\"${file:" + secrets + ":kafka.password}\";");
        p.setProperty("ssl.truststore.location", "/etc/hcwatch/ca.p12");
        p.setProperty("basic.auth.credentials.source", "USER_INFO");
        p.setProperty("basic.auth.user.info", "${file:" + secrets + ":registry.user.info}");
        return p;
    }

    /** Just what the app needs to start. */
    private static Properties plain() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "localhost:9092");
        p.setProperty("schema.registry.url", "http://localhost:8081");
        return p;
    }

    /** A setting of Kafka Streams as it reads the app's properties. */
    private static long streamsSetting(Properties p, String name) throws Exception {
        return new StreamsConfig(StreamApp.streamsProperties(StreamAppConfig.from(p))).getLong(name);
    }

    @Test
    void theSecuritySettingsGoToKafkaStreamsWithTheirSecretsResolvedAndStreamsOnesWin() throws Exception {
        Properties p = secured();
        p.setProperty("streams.ssl.truststore.location", "/etc/hcwatch/other-ca.p12");

        StreamAppConfig config = StreamAppConfig.from(p);

        Properties streams = StreamApp.streamsProperties(config);
        assertThat(streams.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(streams.getProperty("sasl.mechanism")).isEqualTo("SCRAM-SHA-512");
        assertThat(streams.getProperty("sasl.jaas.config")).endsWith("password=\"" + SECRET + "\";");
        assertThat(streams.getProperty("ssl.truststore.location")).isEqualTo("/etc/hcwatch/other-ca.p12");
        assertThat(config.serdeConfig()).containsEntry("basic.auth.user.info", "hcwatch:sr-" + SECRET)
                .doesNotContainKey("config.providers");
    }

    /** The ingest's quiet flush is a wall-clock punctuation, which a stream thread blocked in poll does not run. */
    @Test
    void anIdleStreamThreadLooksUpAsOftenAsTheIngestTicks() throws Exception {
        Properties p = plain();
        assertThat(streamsSetting(p, StreamsConfig.POLL_MS_CONFIG)).isEqualTo(10L);
        p.setProperty("detect.combine.quiet-flush", "0ms");
        assertThat(streamsSetting(p, StreamsConfig.POLL_MS_CONFIG)).isEqualTo(100L);
    }

    /** At least once, commits only bound the work redone after a crash; exactly once, output waits for them. */
    @Test
    void commitsEveryTenSecondsAtLeastOnceEveryTenthOfASecondExactlyOnceAndAsOverridden() throws Exception {
        Properties p = plain();
        assertThat(streamsSetting(p, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(10_000L);
        p.setProperty("streams.processing.guarantee", "exactly_once_v2");
        assertThat(streamsSetting(p, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(100L);
        p.setProperty("streams.commit.interval.ms", "2500");
        assertThat(streamsSetting(p, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(2500L);
    }

    @Test
    void itsDescriptionNamesTheSecretSettingsWithoutTheirValues() throws Exception {
        StreamAppConfig config = StreamAppConfig.from(secured());

        assertThat(config.toString()).contains("sasl.jaas.config", "basic.auth.user.info").doesNotContain(SECRET);
    }

    @Test
    void aSecretThatDoesNotResolveIsAConfigErrorNamingTheKey() throws Exception {
        Properties p = secured();
        p.setProperty("ssl.truststore.password", "${file:" + dir.resolve("secrets.properties") + ":truststore.password}");

        assertThatThrownBy(() -> StreamAppConfig.from(p))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("config key 'ssl.truststore.password': ${file:")
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void haproxyLogFormatsAreDeclaredPerFrontendAndOneThatCannotBeReadIsRefusedNamingItsKey() throws Exception {
        Path file = Files.writeString(dir.resolve("hcwatch.properties"), String.join("\n",
                "bootstrap.servers=localhost:9092", "schema.registry.url=http://localhost:8081",
                "haproxy.log-format=httplog",
                "haproxy.log-format.api='{\"fe\":\"%f\",\"status\":%ST,\"ts\":\"%t\"}'",
                "haproxy.log-format.edge=\"%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r\""));
        StreamAppConfig config = StreamAppConfig.load(file);
        assertThat(config.logFormats().forFrontend(null, "api").source()).isEqualTo("{\"fe\":\"%f\",\"status\":%ST,\"ts\":\"%t\"}");
        assertThat(config.logFormats().forFrontend(null, "edge").source()).isEqualTo("%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r");
        assertThat(config.logFormats().forFrontend(null, "other").source()).startsWith("%ci:%cp [%tr] %ft %b/%s %TR/");

        Properties bad = new Properties();
        bad.load(Files.newBufferedReader(file));
        bad.setProperty("haproxy.log-format.web", "%ci %Xy %ft");
        assertThatThrownBy(() -> StreamAppConfig.from(bad)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("haproxy.log-format.web: ").hasMessageContaining("%Xy is not an HAProxy log-format alias");
    }

    @Test
    void aSilentTimeoutNotAboveTheConsumersSessionTimeoutIsWarnedOfWithBoth() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "127.0.0.1:9092");
        p.setProperty("schema.registry.url", "http://127.0.0.1:8081");
        assertThat(StreamApp.silentTimeoutBelowSession(StreamAppConfig.from(p))).as("defaults: 2 min against 45 s").isEmpty();

        p.setProperty("detect.window.silent-timeout", "30s");
        assertThat(StreamApp.silentTimeoutBelowSession(StreamAppConfig.from(p))).hasValueSatisfying(w ->
                assertThat(w).startsWith("detect.window.silent-timeout (30 s) is not above the consumers' session.timeout.ms (45 s)"));

        p.setProperty("streams.session.timeout.ms", "10000");
        assertThat(StreamApp.silentTimeoutBelowSession(StreamAppConfig.from(p))).isEmpty();
        p.setProperty("streams.session.timeout.ms", "30000");
        assertThat(StreamApp.silentTimeoutBelowSession(StreamAppConfig.from(p))).isPresent();
    }
}
