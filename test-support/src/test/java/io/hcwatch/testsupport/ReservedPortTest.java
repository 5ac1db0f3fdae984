package io.hcwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReservedPortTest {

    @Test
    void aReservedPortCannotBeBoundByAnotherServerAndRefusesConnections() throws IOException {
        try (ReservedPort reserved = new ReservedPort(); ServerSocket other = new ServerSocket()) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), reserved.port());
            assertThatThrownBy(() -> other.bind(address)).isInstanceOf(BindException.class);
            try (Socket client = new Socket()) {
                assertThatThrownBy(() -> client.connect(address, 2_000)).isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void oneReleasedIsBoundByItsServer() throws IOException {
        ReservedPort reserved = new ReservedPort();
        int port = reserved.release();
        try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                server.accept().close();
            }
        }
    }

    @Test
    void portsAreDistinctWhileHeldAndBelowTheKernelsEphemeralRange() {
        int ephemeralFrom = ReservedPort.ephemeralPortsFrom();
        List<ReservedPort> held = new ArrayList<>();
        Set<Integer> ports = new HashSet<>();
        try {
            for (int i = 0; i < 20; i++) {
                ReservedPort r = new ReservedPort();
                held.add(r);
                ports.add(r.port());
                if (ephemeralFrom - 20_000 >= 1_000) {
                    assertThat(r.port()).isBetween(20_000, ephemeralFrom - 1);
                }
            }
        } finally {
            held.forEach(ReservedPort::close);
        }
        assertThat(ports).hasSize(20);
    }

    @Test
    void theEphemeralRangeIsReadWhole() {
        // Files.readString read one byte of this /proc file; a range starting at a one-digit port is no real one
        assertThat(ReservedPort.ephemeralPortsFrom()).satisfiesAnyOf(p -> assertThat(p).isZero(), p -> assertThat(p).isGreaterThan(1023));
    }

    @Test
    void aClosedPortRefusesConnectionsAndNoServerCanTakeIt() throws IOException {
        int port = ReservedPort.closed();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        try (Socket client = new Socket()) {
            assertThatThrownBy(() -> client.connect(address, 2_000)).isInstanceOf(ConnectException.class);
        }
        try (ServerSocket other = new ServerSocket()) {
            assertThatThrownBy(() -> other.bind(address)).isInstanceOf(BindException.class);
        }
    }

    @Test
    void portsFreedTogetherAreDistinctAndBindable() throws IOException {
        for (int round = 0; round < 20; round++) {
            int[] ports = ReservedPort.free(4);
            Set<Integer> distinct = new HashSet<>();
            for (int port : ports) {
                distinct.add(port);
                new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
            }
            assertThat(distinct).hasSize(4);
        }
    }
}
