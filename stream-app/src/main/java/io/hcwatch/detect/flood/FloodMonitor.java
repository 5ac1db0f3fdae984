package io.hcwatch.detect.flood;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.config.Settings;
import java.util.ArrayList;
import java.util.List;

/** Feeds client summaries of one frontend or ALB to the flood detector, keeping only the window. */
public final class FloodMonitor {

    private final Settings settings;
    private final ClientFloodDetector detector;
    private final long step;
    private final long grace;
    private final int capacity;

    public FloodMonitor(Settings settings) {
        this.settings = settings;
        this.detector = new ClientFloodDetector(settings);
        this.step = settings.millis("eval.step");
        this.grace = settings.millis("window.grace");
        this.capacity = settings.integer("flood.capacity");
    }

    public FloodState newState(String platform, String scope) {
        FloodState s = new FloodState();
        s.platform = platform;
        s.scope = scope;
        return s;
    }

    public List<Notification> onTraffic(FloodState s, ClientTraffic t) {
        List<Notification> out = reach(s, t.getBucketStart());
        FloodState.Second sec = null;
        for (FloodState.Second candidate : s.seconds) {
            if (candidate.start == t.getBucketStart()) {
                sec = candidate;
                break;
            }
        }
        if (sec == null) {
            sec = new FloodState.Second();
            sec.start = t.getBucketStart();
            s.seconds.add(sec);
        }
        sec.requests += t.getRequests();
        sec.tarpitted += t.getTarpitted();
        if (t.getHost() != null) {
            sec.requestsByHost.merge(t.getHost(), t.getRequests(), Long::sum);
        }
        sec.merge(t.getClients(), t.getRequestKeys(), t.getRequests(), capacity);
        s.added(t.getBucketStart(), t.getClients(), t.getRequestKeys(), t.getRequests());
        prune(s);
        out.addAll(s.alerts.observe(detector.evaluate(s, s.time.clock), s.time.clock, settings.millis("alert.renotify")));
        return out;
    }

    /** Time reaches {@code now} for this scope: every evaluation step up to it runs (see KeyClock). */
    public List<Notification> reach(FloodState s, long now) {
        List<Notification> out = s.time.reach(now, step, at -> runStep(s, at));
        prune(s);
        return out;
    }

    /** Seconds older than the window plus grace can no longer matter. */
    private void prune(FloodState s) {
        long keep = settings.millis("flood.window") + grace;
        s.seconds.removeIf(sec -> sec.start <= s.time.clock - keep);
    }

    private List<Notification> runStep(FloodState s, long at) {
        return s.alerts.step(detector.evaluate(s, at), at, settings.millis("alert.renotify"),
                settings.integer("alert.clear-steps"));
    }
}
