package io.hcwatch.detect.slots;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import java.util.List;
import java.util.Map;

/** Feeds one HAProxy host's traffic summaries and maxconn settings to the socket-slot detector. */
public final class SlotMonitor {

    private final Settings settings;
    private final SocketSlotDetector detector;
    private final long step;

    public SlotMonitor(Settings settings) {
        this.settings = settings;
        this.detector = new SocketSlotDetector(settings);
        this.step = settings.millis("eval.step");
    }

    public HostState newState(String host) {
        HostState h = new HostState();
        h.host = host;
        return h;
    }

    public List<Notification> onTraffic(HostState h, HaproxyTraffic t) {
        List<Notification> out = reach(h, t.getBucketStart());
        int ring = (int) (Math.max(settings.millis("slots.sustain"), settings.millis("window.grace")) / 1000 + 8);
        FrontendSeconds f = h.frontends.computeIfAbsent(t.getFrontend(), k -> new FrontendSeconds(ring));
        int i = f.slot(t.getBucketStart());
        if (i >= 0) {
            f.maxFeconn[i] = Math.max(f.maxFeconn[i], t.getMaxFeconn());
            f.maxActconn[i] = Math.max(f.maxActconn[i], t.getMaxActconn());
            f.requests[i] += t.getRequests();
            f.tarpitMs[i] += t.getTarpitMs();
            f.status503[i] += t.getStatus503();
            f.rejected[i] += t.getRejected();
            for (Map.Entry<String, Long> term : t.getTerminations().entrySet()) {
                if (term.getKey().equals("PT")) {
                    f.tarpitted[i] += term.getValue();
                }
                f.recentTerminations.merge(term.getKey(), term.getValue(), Long::sum);
            }
        }
        f.lastSeen = Math.max(f.lastSeen, t.getBucketStart());
        out.addAll(judgeNow(h));
        return out;
    }

    public List<Notification> onConfig(HostState h, LbConfig c) {
        List<Notification> out = reach(h, c.getTs().toEpochMilli());
        if (c.getKind() == ConfigKind.haproxy_process) {
            h.processMaxconn = c.getMaxconn();
        } else if (c.getKind() == ConfigKind.haproxy_frontend && c.getFrontend() != null) {
            if (c.getMaxconn() == null) {
                h.frontendMaxconn.remove(c.getFrontend());
            } else {
                h.frontendMaxconn.put(c.getFrontend(), c.getMaxconn());
            }
        }
        // a limit learned after the traffic it applies to (configs and logs come through different
        // topics, in no set order) re-judges the seconds already held instead of waiting for new ones
        out.addAll(judgeNow(h));
        return out;
    }

    /** Time reaches {@code now} for this host: every evaluation step up to it runs (see KeyClock). */
    public List<Notification> reach(HostState h, long now) {
        return h.time.reach(now, step, at -> runStep(h, at));
    }

    /** Fires what holds at the host's clock (resolving waits for the evaluation steps). */
    private List<Notification> judgeNow(HostState h) {
        return h.alerts.observe(detector.evaluate(h, h.time.clock), h.time.clock, settings.millis("alert.renotify"));
    }

    private List<Notification> runStep(HostState h, long at) {
        List<Notification> out = h.alerts.step(detector.evaluate(h, at), at, settings.millis("alert.renotify"),
                settings.integer("alert.clear-steps"));
        // terminations are reported per step; older ones no longer describe the frontend
        h.frontends.values().forEach(f -> f.recentTerminations.clear());
        return out;
    }
}
