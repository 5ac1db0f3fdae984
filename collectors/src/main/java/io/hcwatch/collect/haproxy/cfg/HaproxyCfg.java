package io.hcwatch.collect.haproxy.cfg;

import io.hcwatch.haproxy.BuiltinLogFormats;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what hcwatch needs from a haproxy.cfg: how each server is checked and each frontend's log
 * format. Sections are {@code global}, {@code defaults [name]}, {@code frontend}, {@code backend},
 * {@code listen} (a frontend and a backend) and others that are skipped; a proxy starts from the
 * last defaults section before it, or from the one its {@code from <name>} names. Within a section
 * a later directive replaces an earlier one, as in HAProxy. Nothing here validates the file:
 * HAProxy has done that, and a line this does not know is one it does not need.
 */
public final class HaproxyCfg {

    private static final Set<String> SECTIONS = Set.of("global", "defaults", "frontend", "backend", "listen", "userlist",
            "peers", "resolvers", "mailers", "program", "http-errors", "ring", "cache", "fcgi-app", "log-forward");
    private static final Set<String> NON_HTTP_CHECKS = Set.of("tcp-check", "ssl-hello-chk", "smtpchk", "mysql-check",
            "pgsql-check", "redis-check", "ldap-check", "spop-check", "external-check");

    /** What one proxy or defaults section has set; null where it has set nothing (inherited or HAProxy's default). */
    private static final class Proxy {
        final String name;
        final boolean frontend;
        final boolean backend;
        String mode;
        Integer checkTimeout;
        Integer connectTimeout;
        String httpPath;
        String logOption;
        String logFormat;
        ServerParams defaultServer = new ServerParams();
        final Map<String, ServerParams> servers = new LinkedHashMap<>();

        Proxy(String name, boolean frontend, boolean backend) {
            this.name = name;
            this.frontend = frontend;
            this.backend = backend;
        }

        Proxy inherit(Proxy defaults) {
            if (defaults != null) {
                mode = defaults.mode;
                checkTimeout = defaults.checkTimeout;
                connectTimeout = defaults.connectTimeout;
                httpPath = defaults.httpPath;
                logOption = defaults.logOption;
                logFormat = defaults.logFormat;
                defaultServer = defaults.defaultServer.copy();
            }
            return this;
        }
    }

    /**
     * @param servers each backend's (and listen section's) servers by name, in file order
     * @param logFormats each frontend's (and listen section's) log format; absent when it logs no traffic lines
     */
    public record Settings(Map<String, Map<String, ServerCheckConfig>> servers, Map<String, String> logFormats) {
    }

    private HaproxyCfg() {
    }

    public static Settings parse(String text) {
        Map<String, Proxy> namedDefaults = new HashMap<>();
        Map<String, Proxy> proxies = new LinkedHashMap<>();
        Proxy lastDefaults = null;
        Proxy current = null;
        for (String line : text.split("\n", -1)) {
            List<String> w = CfgWords.split(line);
            if (w.isEmpty()) {
                continue;
            }
            String keyword = w.get(0);
            if (SECTIONS.contains(keyword)) {
                current = null;
                String name = w.size() > 1 && !w.get(1).equals("from") ? w.get(1) : null;
                int from = w.indexOf("from");
                Proxy base = from > 0 && from + 1 < w.size() ? namedDefaults.get(w.get(from + 1)) : lastDefaults;
                switch (keyword) {
                    case "defaults" -> {
                        current = new Proxy(name, false, false).inherit(from > 0 ? base : null);
                        lastDefaults = current;
                        if (name != null) {
                            namedDefaults.put(name, current);
                        }
                    }
                    case "frontend", "backend", "listen" -> {
                        if (name != null) {
                            current = new Proxy(name, !keyword.equals("backend"), !keyword.equals("frontend")).inherit(base);
                            proxies.put(keyword.equals("backend") ? "b:" + name : keyword.equals("frontend") ? "f:" + name
                                    : "l:" + name, current);
                        }
                    }
                    default -> {
                        // global and sections that hold nothing about checks or log formats
                    }
                }
                continue;
            }
            if (current != null) {
                directive(current, w);
            }
        }
        return settings(proxies.values());
    }

    private static void directive(Proxy p, List<String> w) {
        String keyword = w.get(0);
        String arg1 = w.size() > 1 ? w.get(1) : null;
        String arg2 = w.size() > 2 ? w.get(2) : null;
        switch (keyword) {
            case "mode" -> p.mode = arg1;
            case "timeout" -> {
                if ("check".equals(arg1)) {
                    p.checkTimeout = CfgTime.millis(arg2);
                } else if ("connect".equals(arg1)) {
                    p.connectTimeout = CfgTime.millis(arg2);
                }
            }
            case "contimeout" -> p.connectTimeout = CfgTime.millis(arg1);
            case "option" -> option(p, w);
            case "no" -> {
                if ("option".equals(arg1) && arg2 != null && (arg2.equals("httplog") || arg2.equals("tcplog")
                        || arg2.equals("httpslog"))) {
                    p.logOption = null;
                }
                if ("option".equals(arg1) && "httpchk".equals(arg2)) {
                    p.httpPath = null;
                }
            }
            case "http-check" -> {
                int uri = w.indexOf("uri");
                if ("send".equals(arg1) && uri > 0 && uri + 1 < w.size() && p.httpPath != null) {
                    p.httpPath = w.get(uri + 1);
                }
            }
            case "log-format" -> {
                p.logFormat = arg1;
                p.logOption = null;
            }
            case "default-server" -> p.defaultServer.overlay(ServerParams.read(w, 1));
            case "server" -> {
                if (arg1 != null && p.backend) {
                    ServerParams s = p.defaultServer.copy();
                    s.overlay(ServerParams.read(w, 3));
                    p.servers.put(arg1, s);
                }
            }
            case "server-template" -> serverTemplate(p, w);
            default -> {
                // a directive that says nothing about checks or log formats
            }
        }
    }

    private static void option(Proxy p, List<String> w) {
        String name = w.size() > 1 ? w.get(1) : "";
        switch (name) {
            case "httpchk" -> {
                // option httpchk [<method>] [<uri>] [<version>]: one argument is the uri, two or more start with the method
                int args = w.size() - 2;
                p.httpPath = args == 0 ? "/" : args == 1 ? w.get(2) : w.get(3);
            }
            case "httplog" -> {
                p.logOption = w.size() > 2 && w.get(2).equals("clf") ? "clf" : "httplog";
                p.logFormat = null;
            }
            case "httpslog", "tcplog" -> {
                p.logOption = name;
                p.logFormat = null;
            }
            default -> {
                if (NON_HTTP_CHECKS.contains(name)) {
                    p.httpPath = null;
                }
            }
        }
    }

    /** {@code server-template <prefix> <num | low-high> <fqdn>[:<port>] [params]}: servers prefix1 .. prefixN. */
    private static void serverTemplate(Proxy p, List<String> w) {
        if (w.size() < 4 || !p.backend) {
            return;
        }
        String range = w.get(2);
        int dash = range.indexOf('-');
        Integer low = dash < 0 ? Integer.valueOf(1) : CfgTime.count(range.substring(0, dash));
        Integer high = CfgTime.count(dash < 0 ? range : range.substring(dash + 1));
        if (low == null || high == null || high - low > 10_000) {
            return;
        }
        ServerParams params = ServerParams.read(w, 4);
        for (int i = low; i <= high; i++) {
            ServerParams s = p.defaultServer.copy();
            s.overlay(params);
            p.servers.put(w.get(1) + i, s);
        }
    }

    private static Settings settings(Iterable<Proxy> proxies) {
        Map<String, Map<String, ServerCheckConfig>> servers = new LinkedHashMap<>();
        Map<String, String> formats = new LinkedHashMap<>();
        for (Proxy p : proxies) {
            if (p.backend) {
                Map<String, ServerCheckConfig> checks = new LinkedHashMap<>();
                p.servers.forEach((name, s) -> checks.put(name, checks(p, s)));
                servers.put(p.name, Map.copyOf(checks));
            }
            if (p.frontend) {
                String format = logFormat(p);
                if (format != null) {
                    formats.put(p.name, format);
                }
            }
        }
        return new Settings(servers, formats);
    }

    private static ServerCheckConfig checks(Proxy p, ServerParams s) {
        int inter = s.inter != null && s.inter > 0 ? s.inter : 2_000;
        return new ServerCheckConfig(Boolean.TRUE.equals(s.check), inter, s.fastInter != null ? s.fastInter : inter,
                s.downInter != null ? s.downInter : inter, s.rise != null ? s.rise : 2, s.fall != null ? s.fall : 3,
                p.checkTimeout, p.connectTimeout, p.httpPath);
    }

    /** The format HAProxy logs the proxy's traffic with; HTTP formats fall back to tcplog outside mode http, as HAProxy does. */
    private static String logFormat(Proxy p) {
        if (p.logFormat != null) {
            return p.logFormat;
        }
        if (p.logOption == null) {
            return null;
        }
        return BuiltinLogFormats.ofOption(p.logOption, "http".equals(p.mode));
    }
}
