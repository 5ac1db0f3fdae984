package io.hcwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.hcwatch.serde.SchemaRegistries;
import io.hcwatch.serde.SerdeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An https registry that demands a client certificate, reached through the serde's TLS settings. */
class RegistryTlsTest {

    private static final String PASSWORD = "st0re-pa55";

    @TempDir
    static Path dir;
    private static Path keystore;
    private static Path truststore;
    private static HttpsServer server;

    @BeforeAll
    static void startHttpsRegistry() throws Exception {
        keystore = dir.resolve("registry.p12");
        truststore = dir.resolve("trust.p12");
        // One self-signed key serves as the server's and the client's identity; each side trusts it.
        keytool("-genkeypair", "-alias", "registry", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", PASSWORD);
        writeTruststore();

        SSLContext context = RegistryTls.sslContext(new StoreFile(truststore, "PKCS12", PASSWORD.toCharArray()),
                new StoreFile(keystore, "PKCS12", PASSWORD.toCharArray()), null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                parameters.setNeedClientAuth(true);
                params.setSSLParameters(parameters);
            }
        });
        server.createContext("/schemas/ids/1", exchange -> {
            byte[] body = "{\"schema\":\"\\\"string\\\"\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterAll
    static void stopHttpsRegistry() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void theClientTrustsTheTruststoreAndPresentsItsKeystoreCertificate() {
        SchemaRegistryClient client = SchemaRegistries.fromConfig(tlsConfig(true));

        assertThat(client.getById(1).getType()).isEqualTo(Schema.Type.STRING);
    }

    @Test
    void withoutAClientCertificateTheHandshakeFailsAndSaysWhere() {
        SchemaRegistryClient client = SchemaRegistries.fromConfig(tlsConfig(false));

        assertThatThrownBy(() -> client.getById(1))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("GET " + url() + "/schemas/ids/1 failed");
    }

    @Test
    void aWrongStorePasswordIsAConfigErrorThatDoesNotShowThePasswords() {
        Map<String, Object> config = tlsConfig(true);
        config.put(SerdeConfig.SSL_TRUSTSTORE_PASSWORD, "wr0ng-pa55");

        assertThatThrownBy(() -> SchemaRegistries.fromConfig(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("truststore " + truststore)
                .hasMessageNotContaining("wr0ng-pa55")
                .hasMessageNotContaining(PASSWORD);
    }

    private static Map<String, Object> tlsConfig(boolean withKeystore) {
        Map<String, Object> config = new HashMap<>();
        config.put(SerdeConfig.SCHEMA_REGISTRY_URL, url());
        config.put(SerdeConfig.MAX_ATTEMPTS, 1);
        config.put(SerdeConfig.REQUEST_TIMEOUT_MS, 5000);
        config.put(SerdeConfig.SSL_TRUSTSTORE_LOCATION, truststore.toString());
        config.put(SerdeConfig.SSL_TRUSTSTORE_PASSWORD, PASSWORD);
        config.put(SerdeConfig.SSL_TRUSTSTORE_TYPE, "PKCS12");
        if (withKeystore) {
            config.put(SerdeConfig.SSL_KEYSTORE_LOCATION, keystore.toString());
            config.put(SerdeConfig.SSL_KEYSTORE_PASSWORD, PASSWORD);
            config.put(SerdeConfig.SSL_KEYSTORE_TYPE, "PKCS12");
        }
        return config;
    }

    private static String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    private static void writeTruststore() throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("registry", keys.getCertificate("registry"));
        try (OutputStream out = Files.newOutputStream(truststore)) {
            trust.store(out, PASSWORD.toCharArray());
        }
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "keytool", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("keytool did not finish within 60 s: " + String.join(" ", args));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + Files.readString(log));
        }
    }
}
