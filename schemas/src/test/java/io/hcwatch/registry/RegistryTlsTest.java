package io.hcwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.hcwatch.serde.SchemaRegistries;
import io.hcwatch.serde.SerdeConfig;
import io.hcwatch.testsupport.TestCertificates;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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
        // One self-signed key serves as the server's and the client's identity; each side trusts it.
        TestCertificates stores = TestCertificates.selfSigned(dir, "registry", PASSWORD);
        keystore = stores.keystore();
        truststore = stores.truststore();

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
}
