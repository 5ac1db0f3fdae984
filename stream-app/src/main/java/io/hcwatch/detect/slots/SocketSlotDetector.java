package io.hcwatch.detect.slots;

import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * socket_slot_exhaustion: a frontend's sessions (feconn) near its maxconn, or the process's
 * (actconn) near the process maxconn, for a sustained period. Past maxconn HAProxy stops
 * accepting, and good traffic waits in the kernel backlog or is refused; a tarpit holds one
 * socket per tarpitted request for the whole tarpit timeout, so it fills slots fast.
 */
public final class SocketSlotDetector {

    private final Settings settings;

    public SocketSlotDetector(Settings settings) {
        this.settings = settings;
    }

    public List<Finding> evaluate(HostState h, long now) {
        List<Finding> out = new ArrayList<>();
        long sustain = settings.millis("slots.sustain");
        double warning = settings.number("slots.warning-ratio");
        double critical = settings.number("slots.critical-ratio");
        for (Map.Entry<String, FrontendSeconds> e : h.frontends.entrySet()) {
            FrontendSeconds f = e.getValue();
            Integer configured = h.frontendMaxconn.get(e.getKey());
            int maxconn = configured != null ? configured : settings.integer("slots.default-maxconn");
            Window fe = Window.of(f, now, sustain, f.maxFeconn);
            Window act = h.processMaxconn == null ? null : Window.of(f, now, sustain, f.maxActconn);
            boolean feSustained = fe.sustainedAtLeast(warning * maxconn, sustain);
            boolean actSustained = act != null && act.sustainedAtLeast(warning * h.processMaxconn, sustain);
            if (!feSustained && !actSustained) {
                continue;
            }
            long rejected = 0;
            long requests = 0;
            long tarpitted = 0;
            long tarpitMs = 0;
            for (int i = 0; i < f.second.length; i++) {
                if (f.within(i, now, sustain)) {
                    rejected += f.rejected[i];
                    requests += f.requests[i];
                    tarpitted += f.tarpitted[i];
                    tarpitMs += f.tarpitMs[i];
                }
            }
            double feRatio = (double) fe.peak / maxconn;
            double actRatio = act == null ? 0 : (double) act.peak / h.processMaxconn;
            boolean isCritical = feRatio >= critical || actRatio >= critical || rejected > 0;
            double tarpitShare = requests == 0 ? 0 : (double) tarpitted / requests;
            double socketsHeld = tarpitMs / (double) sustain;
            String which = feSustained ? "feconn " + fe.peak + "/" + maxconn + " (" + Fmt.pct(feRatio) + ")"
                    : "actconn " + act.peak + "/" + h.processMaxconn + " (" + Fmt.pct(actRatio) + ", process)";
            String summary = "HAProxy " + h.host + " frontend " + e.getKey() + " is running out of connection slots: " + which
                    + " for " + Fmt.duration(sustain) + (rejected > 0 ? "; " + rejected + " requests rejected or queued out" : "")
                    + (tarpitted > 0 ? "; tarpit holds ~" + Math.round(socketsHeld) + " sockets (" + Fmt.pct(tarpitShare)
                    + " of requests tarpitted)" : "");
            Finding.Details details = Finding.newDetails()
                    .put("feconn", fe.peak)
                    .put("maxconn", maxconn)
                    .put("maxconn_assumed", configured == null)
                    .put("sessions_ratio", Fmt.decimal(feRatio, 2))
                    .put("actconn", act == null ? null : act.peak)
                    .put("process_maxconn", h.processMaxconn)
                    .put("rejected_or_queued_out", rejected)
                    .put("requests", requests)
                    .put("tarpit_share", Fmt.pct(tarpitShare))
                    .put("tarpit_sockets_held", Math.round(socketsHeld))
                    .put("terminations", describe(f.recentTerminations));
            if (configured == null) {
                details.put("note", "maxconn " + maxconn + " assumed: no LbConfig for " + h.host + "/" + e.getKey());
            }
            out.add(new Finding(AlertType.SOCKET_SLOT_EXHAUSTION,
                    AlertType.SOCKET_SLOT_EXHAUSTION.id() + "/" + h.host + "/" + e.getKey(),
                    isCritical ? Severity.CRITICAL : Severity.WARNING, Scope.frontend(h.host, e.getKey()), summary,
                    details.build(), now - sustain, now));
        }
        return out;
    }

    private static String describe(Map<String, Long> terminations) {
        StringBuilder sb = new StringBuilder();
        terminations.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(6)
                .forEach(t -> sb.append(sb.length() > 0 ? "," : "").append(t.getKey()).append('=').append(t.getValue()));
        return sb.toString();
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

        /** Every second with traffic at or above {@code level}, covering (nearly) the whole window. */
        boolean sustainedAtLeast(double level, long windowMillis) {
            if (firstSecond == Long.MAX_VALUE) {
                return false;
            }
            long covered = (lastSecond - firstSecond + 1) * 1000;
            return min >= level && covered >= windowMillis;
        }
    }
}
