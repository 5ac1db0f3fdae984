package io.hcwatch.collect.haproxy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The host name a local HAProxy's log lines carry. HAProxy's {@code log} lines have no host name
 * unless {@code log-send-hostname} is set; rsyslog then stamps one. For lines it takes from the local
 * log socket ({@code log /dev/log}, Debian's default) that is this machine's name, the kernel host
 * name up to its first dot (rsyslog's default without {@code $PreserveFQDN}); {@code log-send-hostname}
 * without a value also sends the kernel host name. So a collector on the HAProxy's own machine names
 * the host the same way by default. (Lines sent over UDP to 127.0.0.1 are stamped with the reverse
 * lookup of 127.0.0.1 instead, usually {@code localhost}: collectors/README.md.)
 */
final class HostNames {

    private static final Path KERNEL_HOSTNAME = Path.of("/proc/sys/kernel/hostname");

    private HostNames() {
    }

    /** This machine's name as rsyslog stamps local messages, or null when it cannot be found. */
    static String local() {
        String name = null;
        try {
            if (Files.isReadable(KERNEL_HOSTNAME)) {
                name = Files.readString(KERNEL_HOSTNAME).strip();
            }
        } catch (IOException e) {
            name = null;
        }
        if (name == null || name.isEmpty()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return null;
            }
        }
        return shortName(name);
    }

    static String shortName(String name) {
        int dot = name.indexOf('.');
        String s = dot > 0 ? name.substring(0, dot) : name;
        return s.isEmpty() ? null : s;
    }

    /** Whether {@code host} names this machine's loopback: 127.0.0.0/8, ::1 or localhost (no DNS asked). */
    static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
                || (h.startsWith("127.") && h.chars().allMatch(c -> c == '.' || Character.isDigit(c)));
    }

    static boolean isLoopback(URI uri) {
        return isLoopback(uri.getHost());
    }
}
