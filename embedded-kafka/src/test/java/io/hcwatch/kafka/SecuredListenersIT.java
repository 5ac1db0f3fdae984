package io.hcwatch.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.testsupport.TestCertificates;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker's secured listeners take the logins they were given and refuse the others. */
class SecuredListenersIT {

    private static final String PASSWORD = "scram-" + Long.toHexString(System.nanoTime());

    @TempDir
    static Path dir;
    private static TestCertificates tls;
    private static EmbeddedKafkaBroker broker;

    @BeforeAll
    static void start() {
        tls = TestCertificates.selfSigned(dir, "broker", "st0re-" + Long.toHexString(System.nanoTime()));
        broker = EmbeddedKafkaBroker.start(Map.of(), new SecuredListeners(tls.keystore(), tls.truststore(), tls.password(),
                Map.of("hcwatch", PASSWORD)));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Map<String, Object> trusting(String bootstrap) {
        Map<String, Object> c = new HashMap<>();
        c.put("bootstrap.servers", bootstrap);
        c.put("ssl.truststore.type", "PKCS12");
        c.put("ssl.truststore.location", tls.truststore().toString());
        c.put("ssl.truststore.password", tls.password());
        c.put("request.timeout.ms", 10_000);
        c.put("default.api.timeout.ms", 10_000);
        return c;
    }

    private static Map<String, Object> scram(String password) {
        return sasl("SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule", password);
    }

    private static Map<String, Object> plain(String password) {
        return sasl("PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule", password);
    }

    private static Map<String, Object> sasl(String mechanism, String loginModule, String password) {
        Map<String, Object> c = trusting(broker.saslSslBootstrapServers());
        c.put("security.protocol", "SASL_SSL");
        c.put("sasl.mechanism", mechanism);
        c.put("sasl.jaas.config", loginModule + " required username=\"hcwatch\" password=\"" + password + "\";");
        return c;
    }

    private static int nodes(Map<String, Object> config) throws Exception {
        try (Admin admin = Admin.create(config)) {
            return admin.describeCluster().nodes().get(20, TimeUnit.SECONDS).size();
        }
    }

    @Test
    void theScramUserLogsInOverTlsAndAWrongPasswordIsRefused() throws Exception {
        assertThat(nodes(scram(PASSWORD))).isEqualTo(1);
        assertThatThrownBy(() -> nodes(scram(PASSWORD + "x"))).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void theSameUserLogsInWithPlainAndAWrongPasswordIsRefused() throws Exception {
        assertThat(nodes(plain(PASSWORD))).isEqualTo(1);
        assertThatThrownBy(() -> nodes(plain(PASSWORD + "x"))).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void theMutualTlsListenerTakesTheClientCertificateAndRefusesAClientWithout() throws Exception {
        Map<String, Object> withCertificate = trusting(broker.mutualTlsBootstrapServers());
        withCertificate.put("security.protocol", "SSL");
        withCertificate.put("ssl.keystore.type", "PKCS12");
        withCertificate.put("ssl.keystore.location", tls.keystore().toString());
        withCertificate.put("ssl.keystore.password", tls.password());
        assertThat(nodes(withCertificate)).isEqualTo(1);

        Map<String, Object> without = trusting(broker.mutualTlsBootstrapServers());
        without.put("security.protocol", "SSL");
        assertThatThrownBy(() -> nodes(without)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SslAuthenticationException.class);
    }
}
