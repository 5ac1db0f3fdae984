package io.hcwatch.parse;

import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.haproxy.BuiltinLogFormats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The log formats frontends write in, as the stream app's settings declare them and as the HAProxy
 * collector publishes them in lb-config ({@code log_format} of kind {@code haproxy_frontend}, per
 * host and frontend). The settings win: a frontend they give a format (its own, or
 * {@code haproxy.log-format} for every frontend) is read with it; the collector's formats apply to
 * the others. A published {@code option httplog} or {@code tcplog} is read by the built-in parsers,
 * every other format by the parser compiled from it. A line of a host that publishes no format (its
 * prefix names none, {@code localhost}, or a name the collector does not use) takes its frontend's
 * published format when every host that publishes that frontend agrees on one.
 *
 * <p>Published formats change while lines are read (a reload with another format): updates are
 * serialised, and readers see one consistent view without locking. Two readers may hand over the
 * same records (the topology and {@code run}'s follower of the lb-config topic): a record older than
 * the one taken for its frontend is ignored.
 */
public final class PublishedLogFormats implements HaproxyLogFormats {

    /** What a host's frontend is published to log with: a compiled format, or null for the built-in parsers. */
    private record Published(String format, LogFormat compiled) {
    }


    private record HostFrontend(String host, String frontend) {
    }

    /** One consistent state: per host and frontend, per frontend for lines naming no host, and the formats to try. */
    private record View(Map<HostFrontend, Published> byHost, Set<String> hosts, Map<String, Published> byFrontend,
                        List<LogFormat> tried) {
    }

    private final HaproxyLogFormats settings;
    private final Map<HostFrontend, Published> published = new LinkedHashMap<>();
    /** The latest record taken per host and frontend: one read again, or late, from a second reader changes nothing. */
    private final Map<HostFrontend, Instant> latest = new HashMap<>();
    /** Compiled formats by format text (and frontend, for a format that logs none), so hosts that agree share one. */
    private final Map<String, LogFormat> compiled = new HashMap<>();
    private volatile View view;

    /** @param settings the formats the stream app's settings declare; they win over published ones */
    public PublishedLogFormats(HaproxyLogFormats settings) {
        this.settings = settings;
        this.view = new View(Map.of(), Set.of(), Map.of(), settings.declared());
    }

    /**
     * Takes the format a {@code haproxy_frontend} lb-config publishes (other kinds say nothing
     * about formats); a null format forgets the frontend's.
     *
     * @return why the published format cannot be read (its frontend's lines are then read by the
     *         built-in parsers only, and what they do not match is dead-lettered), else null
     */
    public synchronized String publish(LbConfig config) {
        if (config.getKind() != ConfigKind.haproxy_frontend || config.getFrontend() == null) {
            return null;
        }
        String host = config.getHost() != null ? config.getHost() : hostOfId(config.getId());
        HostFrontend key = new HostFrontend(host, config.getFrontend());
        Instant before = latest.get(key);
        if (before != null && config.getTs().isBefore(before)) {
            return null;
        }
        latest.put(key, config.getTs());
        String format = config.getLogFormat();
        Published held = published.get(key);
        if (held != null && Objects.equals(held.format(), format)) {
            return null;
        }
        String problem = null;
        if (format == null || format.isBlank()) {
            published.remove(key);
        } else {
            try {
                published.put(key, new Published(format, compile(format, config.getFrontend())));
            } catch (LogFormatException e) {
                published.remove(key);
                problem = e.getMessage();
            }
        }
        view = rebuild();
        return problem;
    }

    /** httplog and tcplog lines are the built-in parsers' (null); any other format is compiled once and shared. */
    private LogFormat compile(String format, String frontend) {
        if (format.equals(BuiltinLogFormats.HTTPLOG) || format.equals(BuiltinLogFormats.TCPLOG)) {
            return null;
        }
        LogFormat shared = compiled.get(format);
        if (shared != null) {
            return shared;
        }
        LogFormat own = compiled.get(format + '\n' + frontend);
        if (own != null) {
            return own;
        }
        LogFormat f = LogFormat.ofHaproxyFormat(format, frontend);
        if (f.namesFrontend()) {
            f = LogFormat.ofHaproxyFormat(format, null);
            compiled.put(format, f);
        } else {
            compiled.put(format + '\n' + frontend, f);
        }
        return f;
    }

    private View rebuild() {
        Map<HostFrontend, Published> byHost = Map.copyOf(published);
        Set<String> hosts = new HashSet<>();
        Map<String, Set<Published>> perFrontend = new HashMap<>();
        published.forEach((k, p) -> {
            hosts.add(k.host());
            perFrontend.computeIfAbsent(k.frontend(), f -> new LinkedHashSet<>()).add(p);
        });
        Map<String, Published> byFrontend = new HashMap<>();
        perFrontend.forEach((frontend, ps) -> {
            if (ps.size() == 1) {
                byFrontend.put(frontend, ps.iterator().next());
            }
        });
        Set<LogFormat> tried = new LinkedHashSet<>(settings.declared());
        for (Published p : published.values()) {
            if (p.compiled() != null) {
                tried.add(p.compiled());
            }
        }
        compiled.values().retainAll(tried);
        return new View(byHost, Set.copyOf(hosts), Map.copyOf(byFrontend), Collections.unmodifiableList(new ArrayList<>(tried)));
    }

    @Override
    public LogFormat forFrontend(String host, String frontend) {
        LogFormat declared = settings.forFrontend(host, frontend);
        if (declared != null) {
            return declared;
        }
        View v = view;
        // a line of a host that publishes nothing (none named, localhost, or another name than the collector's)
        Published p = host == null || !v.hosts().contains(host) ? v.byFrontend().get(frontend)
                : v.byHost().get(new HostFrontend(host, frontend));
        return p == null ? null : p.compiled();
    }

    @Override
    public List<LogFormat> declared() {
        return view.tried();
    }

    /** The host of an lb-config id {@code host/frontend}. */
    private static String hostOfId(String id) {
        int slash = id.indexOf('/');
        return slash < 0 ? id : id.substring(0, slash);
    }

    @Override
    public String toString() {
        return "PublishedLogFormats[settings=" + settings + ", published=" + view.byHost().size() + "]";
    }
}
