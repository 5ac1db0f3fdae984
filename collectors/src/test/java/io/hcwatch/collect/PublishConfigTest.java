package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublishConfigTest {

    @TempDir
    Path dir;

    @Test
    void theSecuritySettingsGoToTheProducerWithSecretsFromADirectoryAndKafkaOnesWin() throws Exception {
        Files.createDirectories(dir.resolve("kafka"));
        Files.writeString(dir.resolve("kafka").resolve("password"), "c0llect-Pa55");
        Files.writeString(dir.resolve("kafka").resolve("registry"), "collector:sr-Pa55");
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "b-1.msk:9096");
        p.setProperty("schema.registry.url", "https://registry:8081");
        p.setProperty("config.providers", "secrets");
        p.setProperty("config.providers.secrets.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider");
        p.setProperty("security.protocol", "SASL_SSL");
        p.setProperty("sasl.mechanism", "SCRAM-SHA-512");
        p.setProperty("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"collector\""
                + " password=\"${secrets:" + dir.resolve("kafka") + ":password}\";");
        p.setProperty("ssl.truststore.location", "/etc/hcwatch/ca.p12");
        p.setProperty("kafka.ssl.truststore.location", "/etc/hcwatch/other-ca.p12");
        p.setProperty("basic.auth.credentials.source", "USER_INFO");
        p.setProperty("basic.auth.user.info", "${secrets:" + dir.resolve("kafka") + ":registry}");
        ConfigReader in = new ConfigReader(p);

        PublishConfig config = PublishConfig.read(in, 9405);
        in.refuseUnclaimed();

        assertThat(Publisher.producerSettings(config, "hcwatch-collect-test"))
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"collector\" password=\"c0llect-Pa55\";")
                .containsEntry("ssl.truststore.location", "/etc/hcwatch/other-ca.p12");
        assertThat(config.serdeConfig()).containsEntry("basic.auth.user.info", "collector:sr-Pa55");
        assertThat(config.toString()).doesNotContain("Pa55");
    }

    @Test
    void aSecretThatDoesNotResolveIsAConfigErrorNamingTheKey() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "b-1.msk:9096");
        p.setProperty("config.providers", "file");
        p.setProperty("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        p.setProperty("ssl.keystore.password", "${file:" + dir.resolve("absent.properties") + ":keystore}");

        assertThatThrownBy(() -> new ConfigReader(p))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("config key 'config.providers': Could not read properties from file");
    }
}
