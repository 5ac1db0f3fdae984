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
 * client_flood, reason slots: one client holding most of a full frontend's connection slots. A
 * client that opens hundreds of connections to a tarpitted path is logged only as each tarpit
 * ends (a few requests a second), far below any request-rate threshold, yet it holds every slot
 * and locks everyone else out. Judged per HAProxy host and frontend on slot-seconds (each logged
 * request's Ta), while the frontend is full (see FrontendFill).
 */
public final class SlotHolderDetector implements Detector<HostState> {

    private final SlotSettings settings;

    public SlotHolderDetector(SlotSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(HostState h, long now) {
        List<Finding> out = new ArrayList<>();
        long window = settings.sustainMillis();
        for (Map.Entry<String, FrontendSeconds> e : h.frontends.entrySet()) {
            FrontendSeconds f = e.getValue();
            FrontendFill fill = FrontendFill.of(f, h.polled.get(e.getKey()), h.frontendMaxconn.get(e.getKey()), settings, now);
            if (!fill.full()) {
                continue;
            }
            SlotHolders holders = SlotHolders.of(f, now, window);
            for (Map.Entry<String, Long> holder : holders.byHolder()) {
                double share = holders.share(holder);
                if (share < settings.holderShare()) {
                    break;
                }
                out.add(finding(h, e.getKey(), holder.getKey(), share, holders, fill, now, window));
            }
        }
        return out;
    }

    private Finding finding(HostState h, String frontend, String client, double share, SlotHolders holders, FrontendFill fill,
                            long now, long window) {
        double slotsHeld = holders.byHolder().stream().filter(x -> x.getKey().equals(client)).findFirst()
                .map(Map.Entry::getValue).orElse(0L) / (double) window;
        String summary = client + " holds " + Fmt.pct(share) + " of the connection slot time of HAProxy " + h.host + " frontend "
                + frontend + " (~" + Math.round(slotsHeld) + " of " + fill.maxconn() + " slots" + (fill.inferred() ? ", limit inferred" : "")
                + ") while it is full: a slow flood, each connection held for seconds, locks everyone else out";
        Map<String, String> details = Finding.newDetails()
                .put("reason", "slots")
                .put("key", client)
                .put("slot_share", Fmt.pct(share))
                .put("slots_held", Math.round(slotsHeld))
                .put("feconn", fill.peak())
                .put("maxconn", fill.maxconn())
                .put("maxconn_inferred", fill.inferred())
                .put("slot_holders", holders.describe(settings.holders()))
                .put("block", client)
                .put("tarpit_warning", "a tarpit holds one socket per request until its timeout; it cannot slow a client that"
                        + " opens connections in parallel and fills maxconn instead: deny or rate-limit at the edge")
                .build();
        return new Finding(AlertType.CLIENT_FLOOD, AlertType.CLIENT_FLOOD.id() + "/" + h.host + "/" + frontend + "/slots:" + client,
                Severity.ERROR, new Scope(null, null, null, h.host, frontend, client), summary, details, now - window, now);
    }
}
