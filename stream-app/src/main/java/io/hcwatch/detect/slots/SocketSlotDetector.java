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
 * process's connections (actconn) near the process maxconn, for a sustained period. The HAProxy
 * collector's polls (scur/slim, CurrConns/Maxconn) decide when they cover the window; the log
 * lines, which arrive only as requests end, are the fallback. Past maxconn
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
        for (String frontend : frontendsOf(h)) {
            FrontendSeconds f = h.frontends.get(frontend);
            FrontendFill fill = FrontendFill.of(f, h.polled.get(frontend), h.frontendMaxconn.get(frontend), settings, now);
            if (fill.full()) {
                Totals t = f == null ? Totals.NONE : Totals.of(f, now, sustain);
                String limit = (fill.polled() ? "scur " : "feconn ") + fill.peak() + "/" + fill.maxconn() + " ("
                        + Fmt.pct(fill.ratio()) + (fill.polled() ? ", polled" : "") + ")";
                Finding.Details details = Finding.newDetails()
                        .put("feconn", fill.peak())
                        .put("maxconn", fill.maxconn())
                        .put("maxconn_inferred", fill.inferred())
                        .put("sessions_ratio", Fmt.decimal(fill.ratio(), 2))
                        .put("sessions_from", fill.polled() ? "haproxy-stats" : "logs");
                if (fill.inferred()) {
                    details.put("note", "no maxconn known for " + h.host + "/" + frontend + ": sessions stayed flat at "
                            + fill.peak() + " for " + Fmt.duration(sustain) + " while requests waited, so that is its limit");
                }
                SlotHolders holders = f == null ? null : SlotHolders.of(f, now, sustain);
                PolledHolders polled = polledHolders(h, frontend, now, sustain);
                String heldBy = null;
                if (polled != null) {
                    // the sessions open now: a tarpitted or slow request is logged only when it ends
                    details.put("slot_holders", polled.describe(settings.holders()))
                            .put("slot_holders_from", "show sess at " + Fmt.instant(polled.at)
                                    + " (" + polled.listed + " sessions)");
                    heldBy = polled.describe(Math.min(3, settings.holders()));
                    if (holders != null && !holders.byHolder().isEmpty()) {
                        details.put("slot_holders_logged", holders.describe(settings.holders()));
                    }
                } else if (holders != null && !holders.byHolder().isEmpty()) {
                    details.put("slot_holders", holders.describe(settings.holders()));
                    heldBy = holders.describe(Math.min(3, settings.holders()));
                }
                out.add(finding(h, frontend, limit, fill.ratio(), t, f, details, now, sustain, heldBy));
            }
        }
        Totals all = new Totals(0, 0, 0, 0);
        for (FrontendSeconds f : h.frontends.values()) {
            all = all.plus(Totals.of(f, now, sustain));
        }
        ProcessFill process = processFill(h, now, sustain);
        if (process != null && process.full()) {
            int peak = process.peak();
            String limit = (process.polled() ? "CurrConns " : "actconn ") + peak + "/" + process.maxconn() + " ("
                    + Fmt.pct((double) peak / process.maxconn()) + ", process" + (process.polled() ? ", polled" : "") + ")";
            Finding.Details details = Finding.newDetails()
                    .put("actconn", peak)
                    .put("process_maxconn", process.maxconn())
                    .put("sessions_ratio", Fmt.decimal((double) peak / process.maxconn(), 2))
                    .put("sessions_from", process.polled() ? "haproxy-stats" : "logs");
            out.add(finding(h, null, limit, (double) peak / process.maxconn(), all, null, details, now, sustain, null));
        }
        return out;
    }

    /** The holders polled for {@code frontend} within the window, or null. */
    private static PolledHolders polledHolders(HostState h, String frontend, long now, long window) {
        PolledHolders p = h.polledHolders == null ? null : h.polledHolders.get(frontend);
        return p != null && p.at <= now && p.at > now - window && p.sources.length > 0 ? p : null;
    }

    /** Frontends known from logs, then those known only from polls. */
    private static java.util.Set<String> frontendsOf(HostState h) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>(h.frontends.keySet());
        names.addAll(h.polled.keySet());
        return names;
    }

    /** The process's connections against its limit: polled (CurrConns, Maxconn) when the polls cover the window, else logged actconn. */
    private record ProcessFill(int peak, int maxconn, boolean full, boolean polled) {
    }

    private ProcessFill processFill(HostState h, long now, long sustain) {
        double warning = settings.warningRatio();
        if (h.polledProcess != null) {
            FrontendWindow w = h.polledProcess.window(now, sustain);
            int limit = h.polledProcess.limitAt(now);
            if (limit <= 0 && h.processMaxconn != null) {
                limit = h.processMaxconn;
            }
            if (w.covers(sustain) && limit > 0) {
                return new ProcessFill(w.peak(), limit, w.sustainedAtLeast(warning * limit, sustain), true);
            }
        }
        if (h.processMaxconn == null || h.processMaxconn <= 0) {
            return null;
        }
        FrontendWindow act = FrontendWindow.ofProcess(h.frontends.values(), now, sustain);
        return new ProcessFill(act.peak(), h.processMaxconn, act.sustainedAtLeast(warning * h.processMaxconn, sustain), false);
    }

    private Finding finding(HostState h, String frontend, String limit, double ratio, Totals t, FrontendSeconds f,
                            Finding.Details details, long now, long sustain, String heldBy) {
        boolean critical = ratio >= settings.criticalRatio() || t.rejected() > 0;
        double tarpitShare = t.requests() == 0 ? 0 : (double) t.tarpitted() / t.requests();
        double socketsHeld = t.tarpitMs() / (double) sustain;
        String where = frontend == null ? "HAProxy " + h.host + " (all frontends)" : "HAProxy " + h.host + " frontend " + frontend;
        String summary = where + " is running out of connection slots: " + limit + " for " + Fmt.duration(sustain)
                + (t.rejected() > 0 ? "; " + t.rejected() + " requests rejected or queued out" : "")
                + (t.tarpitted() > 0 ? "; tarpit holds ~" + Math.round(socketsHeld) + " sockets (" + Fmt.pct(tarpitShare)
                + " of requests tarpitted)" : "")
                + (heldBy != null ? "; slots held by " + heldBy : "");
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

        static final Totals NONE = new Totals(0, 0, 0, 0);

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
}
