package io.hcwatch.collect.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.testsupport.ReservedPort;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeApiClientTest {

    @Test
    void aMissingUnixSocketIsUnreachable(@TempDir Path dir) {
        RuntimeApiClient client = new RuntimeApiClient(RuntimeApiAddress.parse("k", dir.resolve("admin.sock").toString()),
                Duration.ofSeconds(1));

        assertThatThrownBy(() -> client.execute("show info"))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("unreachable"));
    }

    @Test
    void aClosedLoopbackPortIsConnectionRefused() throws Exception {
        int port = ReservedPort.closed();
        RuntimeApiClient client = new RuntimeApiClient(RuntimeApiAddress.parse("k", "ipv4@127.0.0.1:" + port),
                Duration.ofSeconds(1));

        assertThatThrownBy(() -> client.execute("show info"))
                .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("connection_refused"));
    }

    @Test
    void aSocketThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RuntimeApiClient client = new RuntimeApiClient(
                    RuntimeApiAddress.parse("k", "ipv4@127.0.0.1:" + silent.getLocalPort()), Duration.ofMillis(200));

            assertThatThrownBy(() -> client.execute("show info"))
                    .isInstanceOfSatisfying(PollException.class, e -> assertThat(e.reason).isEqualTo("timeout"));
        }
    }

    @Test
    void addressesAreWrittenAsInHaproxysStatsSocketLine() {
        assertThat(RuntimeApiAddress.parse("k", "/run/haproxy/admin.sock").isLocal()).isTrue();
        assertThat(RuntimeApiAddress.parse("k", "unix@/run/haproxy/admin.sock").unixPath()).hasToString("/run/haproxy/admin.sock");
        assertThat(RuntimeApiAddress.parse("k", "ipv6@[::1]:9999")).satisfies(a -> {
            assertThat(a.host()).isEqualTo("::1");
            assertThat(a.isLocal()).isTrue();
        });
        assertThat(RuntimeApiAddress.parse("k", "10.0.0.5:9999").isLocal()).isFalse();
        assertThatThrownBy(() -> RuntimeApiAddress.parse("k", "ipv4@10.0.0.5")).hasMessageContaining("ipv4@host:port");
        assertThatThrownBy(() -> RuntimeApiAddress.parse("k", "admin.sock")).hasMessageContaining("absolute socket path");
    }

    @Test
    void theDefaultNameIsTheKernelHostNameUpToItsFirstDot() {
        assertThat(HostNames.shortName("web1.prod.example.com")).isEqualTo("web1");
        assertThat(HostNames.local()).isNotBlank().doesNotContain(".");
    }
}
