package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.ConfigException;
import io.hcwatch.collect.ConfigReader;
import io.hcwatch.collect.PublishConfig;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * {@code collect haproxy --config FILE}: the shared publishing keys (PublishConfig), topic names,
 * timing, and the hosts. collectors/README.md has the table.
 */
record HaproxyConfig(PublishConfig publish, String configTopic, String healthTopic, String statsTopic,
                     Duration pollInterval, Duration timeout, Duration backoffInitial, Duration backoffMax,
                     List<Host> hosts, int holdersAtPercent, int holdersTop) {

    static final int DEFAULT_METRICS_PORT = 9405;
    private static final String HOST_PREFIX = "haproxy.host.";
    private static final Set<String> HOST_KEYS = Set.of("socket", "stats-url", "stats-auth-env", "name", "config-file");

    /**
     * One HAProxy to poll.
     *
     * @param id        its key in the config file
     * @param name      the host name its records carry
     * @param socket    runtime API address, or null when {@code statsUrl} is set
     * @param basicAuth {@code user:password} for the stats page, read from the named variable
     * @param cfgFile the haproxy.cfg this HAProxy runs with, or null
     */
    record Host(String id, String name, RuntimeApiAddress socket, URI statsUrl, String basicAuth, Path cfgFile) {

        @Override
        public String toString() {
            return id + "(" + name + " via " + (socket != null ? socket : statsUrl) + (basicAuth != null ? ", basic auth" : "")
                    + (cfgFile != null ? ", config " + cfgFile : "") + ")";
        }
    }

    static HaproxyConfig read(ConfigReader in, UnaryOperator<String> environment, Supplier<String> localHostName) {
        PublishConfig publish = PublishConfig.read(in, DEFAULT_METRICS_PORT);
        List<String> ids = in.list("haproxy.hosts");
        if (ids.isEmpty()) {
            throw ConfigException.key("haproxy.hosts", "name at least one host, e.g. haproxy.hosts=web1 with "
                    + "haproxy.host.web1.socket=/run/haproxy/admin.sock");
        }
        for (String key : in.keysUnder(HOST_PREFIX)) {
            String rest = key.substring(HOST_PREFIX.length());
            int dot = rest.lastIndexOf('.');
            String id = dot < 0 ? rest : rest.substring(0, dot);
            if (!ids.contains(id)) {
                throw ConfigException.key(key, "host '" + id + "' is not listed in haproxy.hosts");
            }
            if (!HOST_KEYS.contains(rest.substring(dot + 1))) {
                throw ConfigException.key(key, "unknown host setting, expected one of socket, stats-url, stats-auth-env, name, config-file");
            }
        }
        List<Host> hosts = new ArrayList<>();
        Map<String, String> idByName = new HashMap<>();
        for (String id : ids) {
            Host h = host(in, id, environment, localHostName);
            String other = idByName.putIfAbsent(h.name(), id);
            if (other != null) {
                throw ConfigException.key(HOST_PREFIX + id + ".name", "hosts " + other + " and " + id + " are both named '"
                        + h.name() + "'; give each its own haproxy.host.<id>.name");
            }
            hosts.add(h);
        }
        Duration interval = in.millis("haproxy.poll.interval.ms", 1_000, 100, 3_600_000);
        Duration timeout = in.millis("haproxy.timeout.ms", Math.min(2_000, interval.toMillis() * 2), 10, 600_000);
        Duration backoffInitial = in.millis("haproxy.backoff.initial.ms", 1_000, 1, 3_600_000);
        Duration backoffMax = in.millis("haproxy.backoff.max.ms", 30_000, 1, 3_600_000);
        if (backoffMax.compareTo(backoffInitial) < 0) {
            throw ConfigException.key("haproxy.backoff.max.ms", "must be >= haproxy.backoff.initial.ms");
        }
        HaproxyConfig config = new HaproxyConfig(publish, in.text("topic.config", "lb-config"),
                in.text("topic.health", "health-check-results"), in.text("topic.haproxy-stats", "haproxy-stats"),
                interval, timeout, backoffInitial, backoffMax, List.copyOf(hosts),
                in.integer("haproxy.holders.at-percent", 80, 1, 100), in.integer("haproxy.holders.top", 10, 1, 100));
        in.refuseUnclaimed();
        return config;
    }

    private static Host host(ConfigReader in, String id, UnaryOperator<String> environment, Supplier<String> localHostName) {
        String prefix = HOST_PREFIX + id + ".";
        String socketText = in.text(prefix + "socket", null);
        String urlText = in.text(prefix + "stats-url", null);
        if ((socketText == null) == (urlText == null)) {
            throw ConfigException.key(prefix + "socket", "set exactly one of " + prefix + "socket and " + prefix + "stats-url");
        }
        RuntimeApiAddress socket = socketText == null ? null : RuntimeApiAddress.parse(prefix + "socket", socketText);
        URI url = urlText == null ? null : statsUrl(prefix + "stats-url", urlText);
        String authEnv = in.text(prefix + "stats-auth-env", null);
        String auth = null;
        if (authEnv != null) {
            if (url == null) {
                throw ConfigException.key(prefix + "stats-auth-env", "applies only with " + prefix + "stats-url");
            }
            auth = environment.apply(authEnv);
            if (auth == null || !auth.contains(":")) {
                throw ConfigException.key(prefix + "stats-auth-env", "environment variable " + authEnv
                        + " must hold user:password" + (auth == null ? " but is not set" : ""));
            }
        }
        boolean local = socket != null ? socket.isLocal() : HostNames.isLoopback(url);
        String name = in.text(prefix + "name", null);
        if (name == null) {
            if (!local) {
                throw ConfigException.key(prefix + "name", "is required for a HAProxy on another machine ("
                        + (socket != null ? socket : url) + "): set it to the host name its log lines carry");
            }
            name = localHostName.get();
            if (name == null) {
                throw ConfigException.key(prefix + "name", "this machine's host name cannot be read; set it explicitly");
            }
        }
        if (name.contains("/") || name.isBlank()) {
            throw ConfigException.key(prefix + "name", "must be a host name without '/', got '" + name + "'");
        }
        return new Host(id, name, socket, url, auth, cfgFile(in, prefix + "config-file"));
    }

    /** A configuration the collector cannot read at start is an error; one unreadable at a later reload is logged. */
    private static Path cfgFile(ConfigReader in, String key) {
        String text = in.text(key, null);
        if (text == null) {
            return null;
        }
        Path path = Path.of(text);
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw ConfigException.key(key, "cannot read HAProxy's configuration '" + text
                    + "' (the file HAProxy runs with, e.g. /etc/haproxy/haproxy.cfg)");
        }
        return path;
    }

    private static URI statsUrl(String key, String text) {
        try {
            URI uri = URI.create(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
            if (uri.getUserInfo() != null) {
                throw ConfigException.key(key, "must not hold credentials; put user:password in an environment variable"
                        + " named by stats-auth-env");
            }
            if (!text.contains(";csv")) {
                throw ConfigException.key(key, "expected the CSV form of the stats page, ending in ;csv (e.g. "
                        + "http://10.0.0.5:8404/stats;csv), got '" + text + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            if (e instanceof ConfigException c) {
                throw c;
            }
            throw ConfigException.key(key, "expected an http(s) URL like http://10.0.0.5:8404/stats;csv, got '" + text + "'");
        }
    }

    /** basicAuth is a secret: only whether it is set is shown. */
    @Override
    public String toString() {
        return "HaproxyConfig[" + publish + ", topics=" + configTopic + "," + healthTopic + "," + statsTopic + ", interval="
                + pollInterval.toMillis() + "ms, timeout=" + timeout.toMillis() + "ms, hosts=" + hosts + "]";
    }
}
