package io.hcwatch.topology;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The HAProxy hosts the collector names (in its haproxy-stats and lb-config records), shared by
 * the ingests of one instance. HAProxy's default {@code log} target sends no host name
 * ({@code haproxy[pid]: ...}), and rsyslog's raw template ships the line as sent, so such lines
 * name no host; a {@code ring} forwarding over TCP, and rsyslog stamping what reached it over UDP
 * from 127.0.0.1, write {@code localhost}, which names no host either. With exactly one collector host known they are that host's: a single HAProxy
 * works with the defaults, its logs and polls judged together. With several, a line naming no
 * host cannot be placed and stays under {@code unknown}; set {@code log-send-hostname} (README,
 * "Connecting HAProxy").
 */
public final class HaproxyHosts {

    private final Set<String> named = ConcurrentHashMap.newKeySet();

    void named(String host) {
        if (host != null && !host.isBlank()) {
            named.add(host);
        }
    }

    /** Whether a log line's host names no particular machine. */
    static boolean unnamed(String host) {
        return host == null || host.equals("localhost");
    }

    /** The host of a log line that names none: the one collector host, or null when there are none or several. */
    String forUnnamed() {
        if (named.size() != 1) {
            return null;
        }
        for (String h : named) {
            return h;
        }
        return null;
    }
}
