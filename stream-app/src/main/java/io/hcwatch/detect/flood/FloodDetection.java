package io.hcwatch.detect.flood;

import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.input.ClientSummary;
import java.util.List;

/**
 * Client scopes (an HAProxy frontend over all its hosts, or an ALB): merges each second's
 * client and request-key sketches from every partition and host, keeps only the window, and
 * judges it with the client-flood detector.
 */
public final class FloodDetection implements Detection<FloodState, ClientSummary> {

    private final FloodSettings settings;
    private final List<Detector<FloodState>> detectors;

    public FloodDetection(FloodSettings settings) {
        this.settings = settings;
        this.detectors = List.of(new ClientFloodDetector(settings));
    }

    @Override
    public FloodState newState(String key, ClientSummary first) {
        ClientTraffic c = first.traffic();
        FloodState s = new FloodState();
        s.platform = c.getPlatform();
        s.scope = c.getScope();
        return s;
    }

    /** A client's rate is over whole seconds: judged once per batch. */
    @Override
    public boolean apply(FloodState s, ClientSummary record, long now) {
        ClientTraffic t = record.traffic();
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
        sec.merge(t.getClients(), t.getRequestKeys(), t.getRequests(), settings.capacity());
        s.added(t.getBucketStart(), t.getClients(), t.getRequestKeys(), t.getRequests());
        prune(s, now);
        return false;
    }

    @Override
    public void stepped(FloodState s, long at) {
        prune(s, at);
    }

    /** Seconds older than the window plus grace can no longer matter. */
    private void prune(FloodState s, long now) {
        long keep = settings.windowMillis() + settings.graceMillis();
        s.seconds.removeIf(sec -> sec.start <= now - keep);
    }

    @Override
    public List<Detector<FloodState>> detectors() {
        return detectors;
    }
}
