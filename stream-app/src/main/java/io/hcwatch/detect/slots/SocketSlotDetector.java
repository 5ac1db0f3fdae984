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
            FrontendFill fill = FrontendFill.of(f, h.frontendMaxconn.get(e.getKey()), settings, now);
            if (fill.full()) {
                Totals t = Totals.of(f, now, sustain);
                String limit = "feconn " + fill.peak() + "/" + fill.maxconn() + " (" + Fmt.pct(fill.ratio()) + ")";
                Finding.Details details = Finding.newDetails()
                        .put("feconn", fill.peak())
                        .put("maxconn", fill.maxconn())
                        .put("maxconn_inferred", fill.inferred())
                        .put("sessions_ratio", Fmt.decimal(fill.ratio(), 2));
                if (fill.inferred()) {
                    details.put("note", "no maxconn known for " + h.host + "/" + e.getKey() + ": sessions stayed flat at "
                            + fill.peak() + " for " + Fmt.duration(sustain) + " while requests waited, so that is its limit");
                }
                SlotHolders holders = SlotHolders.of(f, now, sustain);
                if (!holders.byHolder().isEmpty()) {
                    details.put("slot_holders", holders.describe(settings.holders()));
                }
                out.add(finding(h, e.getKey(), limit, fill.ratio(), t, f, details, now, sustain, holders));
            }
        }
        if (h.processMaxconn != null && h.processMaxconn > 0) {
            FrontendWindow act = FrontendWindow.ofProcess(h.frontends.values(), now, sustain);
            Totals all = new Totals(0, 0, 0, 0);
            for (FrontendSeconds f : h.frontends.values()) {
                all = all.plus(Totals.of(f, now, sustain));
            }
            if (act.sustainedAtLeast(warning * h.processMaxconn, sustain)) {
                int peak = act.peak();
                String limit = "actconn " + peak + "/" + h.processMaxconn + " (" + Fmt.pct((double) peak / h.processMaxconn)
                        + ", process)";
                Finding.Details details = Finding.newDetails()
                        .put("actconn", peak)
                        .put("process_maxconn", h.processMaxconn)
                        .put("sessions_ratio", Fmt.decimal((double) peak / h.processMaxconn, 2));
                out.add(finding(h, null, limit, (double) peak / h.processMaxconn, all, null, details, now, sustain, null));
            }
        }
        return out;
    }

    private Finding finding(HostState h, String frontend, String limit, double ratio, Totals t, FrontendSeconds f,
                            Finding.Details details, long now, long sustain, SlotHolders holders) {
        boolean critical = ratio >= settings.criticalRatio() || t.rejected() > 0;
        double tarpitShare = t.requests() == 0 ? 0 : (double) t.tarpitted() / t.requests();
        double socketsHeld = t.tarpitMs() / (double) sustain;
        String where = frontend == null ? "HAProxy " + h.host + " (all frontends)" : "HAProxy " + h.host + " frontend " + frontend;
        String summary = where + " is running out of connection slots: " + limit + " for " + Fmt.duration(sustain)
                + (t.rejected() > 0 ? "; " + t.rejected() + " requests rejected or queued out" : "")
                + (t.tarpitted() > 0 ? "; tarpit holds ~" + Math.round(socketsHeld) + " sockets (" + Fmt.pct(tarpitShare)
                + " of requests tarpitted)" : "")
                + (holders != null && !holders.byHolder().isEmpty()
                ? "; slots held by " + holders.describe(Math.min(3, settings.holders())) : "");
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
}
