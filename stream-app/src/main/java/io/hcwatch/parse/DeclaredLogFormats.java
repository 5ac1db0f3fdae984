package io.hcwatch.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Log formats declared in the stream app's settings: {@code haproxy.log-format.<frontend>=<format>}
 * for one frontend, {@code haproxy.log-format=<format>} for every frontend without its own. A format
 * is what follows {@code log-format} in haproxy.cfg, or a built-in one's name ({@code httplog},
 * {@code httpslog}, {@code tcplog}, {@code clf}).
 */
public final class DeclaredLogFormats implements HaproxyLogFormats {

    static final DeclaredLogFormats NONE = new DeclaredLogFormats(Map.of(), null);

    private final Map<String, LogFormat> byFrontend;
    private final LogFormat fallback;
    private final List<LogFormat> declared;

    private DeclaredLogFormats(Map<String, LogFormat> byFrontend, LogFormat fallback) {
        this.byFrontend = byFrontend;
        this.fallback = fallback;
        List<LogFormat> all = new ArrayList<>(byFrontend.values());
        if (fallback != null) {
            all.add(fallback);
        }
        this.declared = Collections.unmodifiableList(all);
    }

    /**
     * @param formats frontend name to format; the key {@code ""} (or {@code *}) is every other frontend
     * @throws LogFormatException naming the frontend whose format cannot be read
     */
    public static DeclaredLogFormats of(Map<String, String> formats) {
        return of(formats, frontend -> frontend.isEmpty() || frontend.equals("*") ? "haproxy.log-format"
                : "haproxy.log-format." + frontend);
    }

    /**
     * @param settingOf how the setting that declares a frontend's format is named in a refusal
     *                  (e.g. {@code --log-format www})
     */
    public static DeclaredLogFormats of(Map<String, String> formats, Function<String, String> settingOf) {
        Map<String, LogFormat> byFrontend = new LinkedHashMap<>();
        LogFormat fallback = null;
        for (Map.Entry<String, String> e : formats.entrySet()) {
            boolean everyFrontend = e.getKey().isEmpty() || e.getKey().equals("*");
            try {
                LogFormat f = LogFormat.compile(e.getValue(), everyFrontend ? null : e.getKey());
                if (everyFrontend) {
                    fallback = f;
                } else {
                    byFrontend.put(e.getKey(), f);
                }
            } catch (LogFormatException x) {
                throw new LogFormatException(settingOf.apply(e.getKey()) + ": " + x.getMessage());
            }
        }
        return new DeclaredLogFormats(Collections.unmodifiableMap(byFrontend), fallback);
    }

    @Override
    public LogFormat forFrontend(String host, String frontend) {
        LogFormat own = byFrontend.get(frontend);
        return own != null ? own : fallback;
    }

    @Override
    public List<LogFormat> declared() {
        return declared;
    }

    @Override
    public String toString() {
        return "DeclaredLogFormats" + declared;
    }
}
