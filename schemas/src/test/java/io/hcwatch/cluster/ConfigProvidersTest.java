package io.hcwatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigProvidersTest {

    private static final String SECRET = "s3cret-Pa55word";

    @TempDir
    Path dir;

    private Properties withProviders() {
        Properties p = new Properties();
        p.setProperty("config.providers", "file,dir,env");
        p.setProperty("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        p.setProperty("config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider");
        p.setProperty("config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        p.setProperty("bootstrap.servers", "kafka:9096");
        return p;
    }

    @Test
    void fileDirectoryAndEnvironmentReferencesResolveInsideALongerValueAndTheProviderKeysAreTakenOut() throws Exception {
        Path secrets = Files.writeString(dir.resolve("kafka.properties"), "password=" + SECRET + "\nuser=hcwatch\n");
        Files.createDirectories(dir.resolve("registry"));
        Files.writeString(dir.resolve("registry").resolve("user-info"), "sr-user:sr-" + SECRET);
        Properties p = withProviders();
        p.setProperty("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"${file:"
                + secrets + ":user}\" password=\"${file:" + secrets + ":password}\";");
        p.setProperty("basic.auth.user.info", "${dir:" + dir.resolve("registry") + ":user-info}");
        p.setProperty("ssl.truststore.location", "${env:PATH}");

        Properties resolved = ConfigProviders.resolve(p);

        assertThat(resolved.getProperty("sasl.jaas.config")).isEqualTo(
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"hcwatch\" password=\"" + SECRET + "\";");
        assertThat(resolved.getProperty("basic.auth.user.info")).isEqualTo("sr-user:sr-" + SECRET);
        assertThat(resolved.getProperty("ssl.truststore.location")).isEqualTo(System.getenv("PATH"));
        assertThat(resolved.stringPropertyNames()).containsExactlyInAnyOrder("bootstrap.servers", "sasl.jaas.config",
                "basic.auth.user.info", "ssl.truststore.location");
    }

    @Test
    void aFileWithoutProvidersOrReferencesIsReturnedAsItIs() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "kafka:9092");
        p.setProperty("detect.gap.after", "haproxy=30s");

        assertThat(ConfigProviders.resolve(p)).isEqualTo(p);
    }

    @Test
    void aReferenceToAProviderTheFileDoesNotDeclareIsRefusedNamingTheKeyAndTheReference() {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", "kafka:9092");
        p.setProperty("ssl.keystore.password", "${file:/run/secrets/kafka.properties:keystore}");

        assertThatThrownBy(() -> ConfigProviders.resolve(p))
                .isInstanceOf(ConfigProviders.ProviderException.class)
                .hasMessage("config key 'ssl.keystore.password': refers to ${file:/run/secrets/kafka.properties:keystore}, but"
                        + " config.providers does not declare a provider 'file'");
        Properties declared = withProviders();
        declared.setProperty("ssl.keystore.password", "${vault:secret/kafka:keystore}");
        assertThatThrownBy(() -> ConfigProviders.resolve(declared))
                .hasMessageContaining("does not declare a provider 'vault' (it declares file, dir, env)");
    }

    @Test
    void aKeyTheSecretFileDoesNotHoldIsRefusedWithoutShowingWhatTheFileHolds() throws Exception {
        Path secrets = Files.writeString(dir.resolve("kafka.properties"), "password=" + SECRET + "\n");
        Properties p = withProviders();
        p.setProperty("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
                + " password=\"${file:" + secrets + ":pasword}\";");

        assertThatThrownBy(() -> ConfigProviders.resolve(p))
                .isInstanceOf(ConfigProviders.ProviderException.class)
                .hasMessage("config key 'sasl.jaas.config': ${file:" + secrets + ":pasword} did not resolve: provider 'file'"
                        + " holds no 'pasword' at " + secrets + " (or may not read it: allowed.paths)")
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void aSecretFileThatCannotBeReadIsRefusedNamingTheFile() {
        Properties p = withProviders();
        Path missing = dir.resolve("missing.properties");
        p.setProperty("sasl.jaas.config", "x password=\"${file:" + missing + ":password}\";");

        assertThatThrownBy(() -> ConfigProviders.resolve(p))
                .isInstanceOf(ConfigProviders.ProviderException.class)
                .hasMessageContaining("config key 'config.providers'")
                .hasMessageContaining(missing.toString());
    }

    @Test
    void aPathOutsideTheProvidersAllowedPathsDoesNotResolve() throws Exception {
        Files.createDirectories(dir.resolve("allowed"));
        Path outside = Files.writeString(dir.resolve("kafka.properties"), "password=" + SECRET + "\n");
        Properties p = withProviders();
        p.setProperty("config.providers.file.param.allowed.paths", dir.resolve("allowed").toString());
        p.setProperty("ssl.key.password", "${file:" + outside + ":password}");

        assertThatThrownBy(() -> ConfigProviders.resolve(p))
                .isInstanceOf(ConfigProviders.ProviderException.class)
                .hasMessageNotContaining(SECRET);
    }
}
