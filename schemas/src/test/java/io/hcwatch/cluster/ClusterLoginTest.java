package io.hcwatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The login check before a command starts; the refusals of a real cluster are in the secured-cluster IT (tools). */
class ClusterLoginTest {

    private ServerSocket silent;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private Thread acceptor;

    @BeforeEach
    void aPortThatAcceptsAndNeverAnswers() throws Exception {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> {
            try {
                while (!silent.isClosed()) {
                    accepted.add(silent.accept());
                }
            } catch (Exception closed) {
                // the test is over
            }
        }, "silent-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void close() throws Exception {
        silent.close();
        for (Socket s : accepted) {
            s.close();
        }
    }

    private String bootstrap() {
        return "127.0.0.1:" + silent.getLocalPort();
    }

    @Test
    void aPlaintextClusterIsNotChecked() {
        ClusterLogin.verify(List.of(Map.of("bootstrap.servers", bootstrap())), "test", Duration.ofSeconds(30));
        ClusterLogin.verify(List.of(Map.of("bootstrap.servers", bootstrap(), "security.protocol", "plaintext")), "test",
                Duration.ofSeconds(30));

        assertThat(accepted).as("no connection was made").isEmpty();
    }

    @Test
    void aClusterThatDoesNotAnswerInTimeIsNoReasonToStop() {
        Map<String, Object> settings = Map.of("bootstrap.servers", bootstrap(), "security.protocol", "SSL");

        assertThatCode(() -> ClusterLogin.verify(List.of(settings), "test", Duration.ofSeconds(1))).doesNotThrowAnyException();
        assertThat(accepted).as("it was tried").isNotEmpty();
    }

    @Test
    void settingsThatCannotMakeAClientStopTheCommandSayingWhy() {
        Map<String, Object> settings = Map.of("bootstrap.servers", bootstrap(), "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512");

        assertThatThrownBy(() -> ClusterLogin.verify(List.of(settings), "test", Duration.ofSeconds(1)))
                .isInstanceOf(ClusterLogin.ClusterLoginException.class)
                .hasMessageStartingWith("cannot make a Kafka client for Kafka at " + bootstrap()
                        + " (security.protocol=SASL_SSL, sasl.mechanism=SCRAM-SHA-512): ")
                .hasMessageContaining("JAAS");
    }

    @Test
    void anUnknownSecurityProtocolIsRefusedBeforeAnyConnection() {
        Map<String, Object> settings = Map.of("bootstrap.servers", bootstrap(), "security.protocol", "SASL_TLS");

        assertThatThrownBy(() -> ClusterLogin.verify(List.of(settings), "test", Duration.ofSeconds(1)))
                .isInstanceOf(ClusterLogin.ClusterLoginException.class)
                .hasMessageContaining("SASL_TLS");
        assertThat(accepted).isEmpty();
    }
}
