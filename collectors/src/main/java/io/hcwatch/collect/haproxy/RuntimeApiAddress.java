package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.ConfigException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Where a stats socket listens, written as in HAProxy's {@code stats socket} line: a path (or
 * {@code unix@path}) for a unix socket, {@code ipv4@host:port} or {@code ipv6@[addr]:port} (or plain
 * {@code host:port}) for TCP.
 */
record RuntimeApiAddress(String text, Path unixPath, String host, int port) {

    static RuntimeApiAddress parse(String key, String text) {
        String t = text.strip();
        if (t.startsWith("unix@")) {
            t = t.substring("unix@".length());
        } else if (t.startsWith("ipv4@") || t.startsWith("ipv6@") || (!t.startsWith("/") && t.contains(":"))) {
            String hostPort = t.contains("@") ? t.substring(t.indexOf('@') + 1) : t;
            int colon = hostPort.lastIndexOf(':');
            String host = colon > 0 ? hostPort.substring(0, colon) : "";
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException | IndexOutOfBoundsException e) {
                port = -1;
            }
            if (host.isEmpty() || port < 1 || port > 65_535) {
                throw ConfigException.key(key, "expected ipv4@host:port, ipv6@[addr]:port or a socket path, got '" + text + "'");
            }
            return new RuntimeApiAddress(text.strip(), null, host, port);
        }
        if (!t.startsWith("/")) {
            throw ConfigException.key(key, "expected an absolute socket path, ipv4@host:port or ipv6@[addr]:port, got '" + text + "'");
        }
        return new RuntimeApiAddress(text.strip(), Path.of(t), null, -1);
    }

    boolean isUnix() {
        return unixPath != null;
    }

    /** A unix socket, or a TCP address on this machine's loopback. */
    boolean isLocal() {
        return isUnix() || HostNames.isLoopback(host);
    }

    SocketAddress socketAddress() throws UnknownHostException {
        return isUnix() ? UnixDomainSocketAddress.of(unixPath) : new InetSocketAddress(InetAddress.getByName(host), port);
    }

    @Override
    public String toString() {
        return text;
    }
}
