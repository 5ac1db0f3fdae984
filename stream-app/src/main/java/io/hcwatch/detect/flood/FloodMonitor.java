package io.hcwatch.detect.flood;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.EvaluationSteps;
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

    public boolean isLate(FloodState s, long eventTime) {
        return s.clock > 0 && eventTime < s.clock - grace;
    }

    public List<Notification> onTraffic(FloodState s, ClientTraffic t) {
        List<Notification> out = advanceTo(s, t.getBucketStart());
        s.clock = Math.max(s.clock, t.getBucketStart());
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
        out.addAll(s.alerts.observe(detector.evaluate(s, s.clock), s.clock, settings.millis("alert.renotify")));
        return out;
    }

    public List<Notification> onTime(FloodState s, long now) {
        if (s.clock == 0 || now <= s.clock) {
            return List.of();
        }
        List<Notification> out = advanceTo(s, now);
        s.clock = now;
        prune(s);
        return out;
    }

    /** Seconds older than the window plus grace can no longer matter. */
    private void prune(FloodState s) {
        long keep = settings.millis("flood.window") + grace;
        s.seconds.removeIf(sec -> sec.start <= s.clock - keep);
    }

    private List<Notification> advanceTo(FloodState s, long until) {
        List<Notification> out = new ArrayList<>();
        if (s.lastStep == 0) {
            s.lastStep = EvaluationSteps.floor(Math.max(s.clock, until), step);
            return out;
        }
        for (long at : EvaluationSteps.due(s.lastStep, until, step)) {
            s.lastStep = at;
            out.addAll(s.alerts.step(detector.evaluate(s, at), at, settings.millis("alert.renotify"),
                    settings.integer("alert.clear-steps")));
        }
        return out;
    }
}
