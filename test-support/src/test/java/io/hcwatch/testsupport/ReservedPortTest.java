package io.hcwatch.testsupport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
}
