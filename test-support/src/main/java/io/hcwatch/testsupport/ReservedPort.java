package io.hcwatch.testsupport;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port held for a server that binds it later. A port only looked up free (a server
 * socket on port 0, closed at once) can be taken before its server starts: by another test's
 * server in a parallel fork, or as the local port of any outgoing connection, which the kernel
 * picks from the same range. A bound socket keeps it from both, and since it never listens, a
 * connection to the port is refused as to a closed one: a server that is to come up late still
 * looks down until it does.
 *
 * <p>The port comes from below the kernel's ephemeral range, so between {@link #release()} and the
 * server's bind only a server told that very number can take it: not an outgoing connection, nor
 * another fork's server on "any port". (The embedded broker picks its ports the same way.)
 */
public final class ReservedPort implements Closeable {

    /** The lowest port drawn: clear of the well-known and most registered services' ports. */
    private static final int LOWEST = 20_000;
    private static final int DRAWS = 100;
    /** Ports {@link #closed()} holds for the JVM's life. */
    private static final List<ReservedPort> HELD_CLOSED = new CopyOnWriteArrayList<>();

    private final Socket holder = new Socket();
    private final int port;

    public ReservedPort() {
        int below = ephemeralPortsFrom();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            for (int draw = 0; ; draw++) {
                boolean drawn = below - LOWEST >= 1_000 && draw < DRAWS;
                try {
                    holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), drawn ? random.nextInt(LOWEST, below) : 0));
                    break;
                } catch (BindException taken) {
                    if (!drawn) {
                        throw taken;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no loopback port to reserve", e);
        }
        this.port = holder.getLocalPort();
    }

    /**
     * A loopback port that refuses every connection for as long as this JVM runs: held bound and never
     * listened on. For a test of what happens when nothing listens, which a port only looked up free
     * cannot promise: another server may bind it before the test connects.
     */
    public static int closed() {
        ReservedPort held = new ReservedPort();
        HELD_CLOSED.add(held);
        return held.port();
    }

    /** A port free now and, as any reserved one, taken by nothing but the server it is given to: for a server that binds it next. */
    public static int free() {
        return new ReservedPort().release();
    }

    /**
     * {@code count} ports as {@link #free()} gives one, and distinct: each is held until the last is
     * drawn (ports drawn one at a time and released can come up twice).
     */
    public static int[] free(int count) {
        ReservedPort[] held = new ReservedPort[count];
        try {
            for (int i = 0; i < count; i++) {
                held[i] = new ReservedPort();
            }
        } catch (RuntimeException e) {
            for (ReservedPort r : held) {
                if (r != null) {
                    r.close();
                }
            }
            throw e;
        }
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = held[i].release();
        }
        return ports;
    }

    public int port() {
        return port;
    }

    /** Frees the port for its server, which should bind it next; returns it. */
    public int release() {
        close();
        return port;
    }

    /** The first port of the kernel's ephemeral range (Linux), or 0 where it cannot be read. */
    static int ephemeralPortsFrom() {
        try {
            // readString sizes its read by the file's length, which /proc gives as 0 (it read one byte)
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
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
