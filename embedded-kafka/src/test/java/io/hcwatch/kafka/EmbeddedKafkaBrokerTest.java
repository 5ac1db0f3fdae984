package io.hcwatch.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaBrokerTest {

    @Test
    void freePortsAreDistinctBindableAndBelowTheKernelsEphemeralRange() throws Exception {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        assumeTrue(Files.isReadable(range), "no " + range + " on this system");
        int ephemeralFrom = Integer.parseInt(Files.readAllLines(range).get(0).trim().split("\\s+")[0]);
        for (int round = 0; round < 20; round++) {
            int[] ports = EmbeddedKafkaBroker.freePorts(4);
            assertThat(Arrays.stream(ports).distinct()).hasSize(4);
            assertThat(Arrays.stream(ports).boxed()).allSatisfy(p -> assertThat(p).isBetween(20_000, ephemeralFrom - 1));
            for (int port : ports) {
                new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
            }
        }
    }
}
