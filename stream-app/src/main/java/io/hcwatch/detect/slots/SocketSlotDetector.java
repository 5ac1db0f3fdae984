package io.hcwatch.detect.slots;

import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * socket_slot_exhaustion: a frontend's sessions (feconn) near its maxconn, or the whole
 * process's connections (actconn) near the process maxconn, for a sustained period. Past maxconn
 * HAProxy stops accepting and good traffic waits in the kernel backlog or is refused; a tarpit
 * holds one socket per tarpitted request for the whole tarpit timeout, so it fills slots fast.
 * The process limit is one alert per host, not one per frontend.
 */
public final class SocketSlotDetector implements Detector<HostState> {

    private final SlotSettings settings;

    public SocketSlotDetector(SlotSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(HostState h, long now) {
        List<Finding> out = new ArrayList<>();
        long sustain = settings.sustainMillis();
        double warning = settings.warningRatio();
        for (Map.Entry<String, FrontendSeconds> e : h.frontends.entrySet()) {
            FrontendSeconds f = e.getValue();
            Integer configured = h.frontendMaxconn.get(e.getKey());
            int maxconn = configured != null ? configured : settings.defaultMaxconn();
            Window fe = Window.of(f, now, sustain, f.maxFeconn);
            if (fe.sustainedAtLeast(warning * maxconn, sustain)) {
                Totals t = Totals.of(f, now, sustain);
                String limit = "feconn " + fe.peak + "/" + maxconn + " (" + Fmt.pct((double) fe.peak / maxconn) + ")";
                Finding.Details details = Finding.newDetails()
                        .put("feconn", fe.peak)
                        .put("maxconn", maxconn)
                        .put("maxconn_assumed", configured == null)
                        .put("sessions_ratio", Fmt.decimal((double) fe.peak / maxconn, 2));
                if (configured == null) {
                    details.put("note", "maxconn " + maxconn + " assumed: no LbConfig for " + h.host + "/" + e.getKey());
                }
                out.add(finding(h, e.getKey(), limit, (double) fe.peak / maxconn, t, f, details, now, sustain));
            }
        }
        if (h.processMaxconn != null && h.processMaxconn > 0) {
            int peak = 0;
            int min = Integer.MAX_VALUE;
            Totals all = new Totals(0, 0, 0, 0);
            boolean sustained = true;
            boolean any = false;
            for (FrontendSeconds f : h.frontends.values()) {
                Window act = Window.of(f, now, sustain, f.maxActconn);
                if (act.firstSecond() == Long.MAX_VALUE) {
                    continue;
                }
                any = true;
                peak = Math.max(peak, act.peak());
                min = Math.min(min, act.min());
                sustained &= act.covers(sustain);
                all = all.plus(Totals.of(f, now, sustain));
            }
            if (any && sustained && min >= warning * h.processMaxconn) {
                String limit = "actconn " + peak + "/" + h.processMaxconn + " (" + Fmt.pct((double) peak / h.processMaxconn)
                        + ", process)";
                Finding.Details details = Finding.newDetails()
                        .put("actconn", peak)
                        .put("process_maxconn", h.processMaxconn)
                        .put("sessions_ratio", Fmt.decimal((double) peak / h.processMaxconn, 2));
                out.add(finding(h, null, limit, (double) peak / h.processMaxconn, all, null, details, now, sustain));
            }
        }
        return out;
    }

    private Finding finding(HostState h, String frontend, String limit, double ratio, Totals t, FrontendSeconds f,
                            Finding.Details details, long now, long sustain) {
        boolean critical = ratio >= settings.criticalRatio() || t.rejected() > 0;
        double tarpitShare = t.requests() == 0 ? 0 : (double) t.tarpitted() / t.requests();
        double socketsHeld = t.tarpitMs() / (double) sustain;
        String where = frontend == null ? "HAProxy " + h.host + " (all frontends)" : "HAProxy " + h.host + " frontend " + frontend;
        String summary = where + " is running out of connection slots: " + limit + " for " + Fmt.duration(sustain)
                + (t.rejected() > 0 ? "; " + t.rejected() + " requests rejected or queued out" : "")
                + (t.tarpitted() > 0 ? "; tarpit holds ~" + Math.round(socketsHeld) + " sockets (" + Fmt.pct(tarpitShare)
                + " of requests tarpitted)" : "");
        details.put("rejected_or_queued_out", t.rejected())
                .put("requests", t.requests())
                .put("tarpit_share", Fmt.pct(tarpitShare))
                .put("tarpit_sockets_held", Math.round(socketsHeld));
        if (f != null) {
            details.put("terminations", describe(f.recentTerminations));
        }
        String key = AlertType.SOCKET_SLOT_EXHAUSTION.id() + "/" + h.host + "/" + (frontend == null ? "process" : frontend);
        return new Finding(AlertType.SOCKET_SLOT_EXHAUSTION, key, critical ? Severity.CRITICAL : Severity.WARNING,
                Scope.frontend(h.host, frontend), summary, details.build(), now - sustain, now);
    }

    private static String describe(Map<String, Long> terminations) {
        StringBuilder sb = new StringBuilder();
        terminations.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(6)
                .forEach(t -> sb.append(sb.length() > 0 ? "," : "").append(t.getKey()).append('=').append(t.getValue()));
        return sb.toString();
    }

    /** Requests, rejections and tarpit use of one frontend inside the window. */
    record Totals(long requests, long rejected, long tarpitted, long tarpitMs) {

        static Totals of(FrontendSeconds f, long now, long window) {
            long requests = 0;
            long rejected = 0;
            long tarpitted = 0;
            long tarpitMs = 0;
            for (int i = 0; i < f.second.length; i++) {
                if (f.within(i, now, window)) {
                    requests += f.requests[i];
                    rejected += f.rejected[i];
                    tarpitted += f.tarpitted[i];
                    tarpitMs += f.tarpitMs[i];
                }
            }
            return new Totals(requests, rejected, tarpitted, tarpitMs);
        }

        Totals plus(Totals o) {
            return new Totals(requests + o.requests, rejected + o.rejected, tarpitted + o.tarpitted, tarpitMs + o.tarpitMs);
        }
    }

    /** The seconds of one counter inside the window: their peak, minimum, and the span they cover. */
    record Window(int peak, int min, long firstSecond, long lastSecond) {

        static Window of(FrontendSeconds f, long now, long windowMillis, int[] values) {
            int peak = 0;
            int min = Integer.MAX_VALUE;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (int i = 0; i < f.second.length; i++) {
                if (f.within(i, now, windowMillis) && f.requests[i] > 0) {
                    peak = Math.max(peak, values[i]);
                    min = Math.min(min, values[i]);
                    first = Math.min(first, f.second[i]);
                    last = Math.max(last, f.second[i]);
                }
            }
            return new Window(peak, min == Integer.MAX_VALUE ? 0 : min, first, last);
        }

        boolean covers(long windowMillis) {
            return firstSecond != Long.MAX_VALUE && (lastSecond - firstSecond + 1) * 1000 >= windowMillis;
        }

        /** Every second with traffic at or above {@code level}, covering the whole window. */
        boolean sustainedAtLeast(double level, long windowMillis) {
            return covers(windowMillis) && min >= level;
        }
    }
}
