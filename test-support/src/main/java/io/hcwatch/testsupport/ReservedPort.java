package io.hcwatch.testsupport;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port held for a server that binds it later. A port only looked up free (a server
 * socket on port 0, closed at once) can be taken before its server starts: by another test's
 * server in a parallel fork, or as the local port of any outgoing connection, which the kernel
 * picks from the same range. A bound socket keeps it from both, and since it never listens, a
 * connection to the port is refused as to a closed one: a server that is to come up late still
 * looks down until it does.
 */
public final class ReservedPort implements Closeable {

    private final Socket holder = new Socket();
    private final int port;

    public ReservedPort() {
        try {
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("no loopback port to reserve", e);
        }
        this.port = holder.getLocalPort();
    }

    public int port() {
        return port;
    }

    /** Frees the port for its server, which should bind it next; returns it. */
    public int release() {
        close();
        return port;
    }

    @Override
    public void close() {
        try {
            holder.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
