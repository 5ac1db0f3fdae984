package io.hcwatch.detect.slots;

import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.HostInput;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import java.util.List;
import java.util.Map;

/**
 * HAProxy hosts: takes in each host's per-second frontend summaries, the collector's polls of its
 * sessions and limits (haproxy-stats) and its maxconn settings, and judges them with the
 * socket-slot detector. A limit learned after the traffic it applies to (configs and logs come
 * through different topics, in no set order) re-judges the seconds held.
 */
public final class SlotDetection implements Detection<HostState, HostInput> {

    private final SlotSettings settings;
    private final List<Detector<HostState>> detectors;

    public SlotDetection(SlotSettings settings) {
        this.settings = settings;
        this.detectors = List.of(new SocketSlotDetector(settings), new SlotHolderDetector(settings));
    }

    @Override
    public HostState newState(String host, HostInput first) {
        HostState h = new HostState();
        h.host = host;
        return h;
    }

    /** Traffic and polls move rates over seconds: judged once per batch. */
    @Override
    public boolean apply(HostState h, HostInput record, long now) {
        record.accept(new HostInput.Cases<Void>() {
            @Override
            public Void frontendSummary(FrontendSummary summary) {
                traffic(h, summary.traffic());
                return null;
            }

            @Override
            public Void config(LoadBalancerConfig config) {
                SlotDetection.config(h, config.config());
                return null;
            }

            @Override
            public Void poll(Poll poll) {
                polled(h, poll.stats());
                return null;
            }
        });
        return false;
    }

    private void traffic(HostState h, HaproxyTraffic t) {
        FrontendSeconds f = h.frontends.computeIfAbsent(t.getFrontend(), k -> new FrontendSeconds(settings.ringSeconds()));
        int i = f.slot(t.getBucketStart());
        if (i >= 0) {
            f.maxFeconn[i] = Math.max(f.maxFeconn[i], t.getMaxFeconn());
            f.maxActconn[i] = Math.max(f.maxActconn[i], t.getMaxActconn());
            f.requests[i] += t.getRequests();
            f.tarpitMs[i] += t.getTarpitMs();
            f.status503[i] += t.getStatus503();
            f.rejected[i] += rejected(t);
            f.slotMs[i] += t.getSlotMs();
            f.waited[i] += t.getWaited();
            Map<String, Long> holders = f.holders.get(i);
            t.getHolders().forEach(holder -> holders.merge(holder.getKey(), holder.getCount(), Long::sum));
            trim(holders);
            for (Map.Entry<String, Long> term : t.getTerminations().entrySet()) {
                if (term.getKey().equals("PT")) {
                    f.tarpitted[i] += term.getValue();
                }
                f.recentTerminations.merge(term.getKey(), term.getValue(), Long::sum);
            }
        }
        f.lastSeen = Math.max(f.lastSeen, t.getBucketStart());
    }

    /**
     * Requests HAProxy turned away for want of a slot or a server: queued out (sQ), refused while
     * queued (PR), or answered 503 as the connection was set up (SC).
     */
    private static long rejected(HaproxyTraffic t) {
        return t.getTerminations().getOrDefault("sQ", 0L) + t.getTerminations().getOrDefault("PR", 0L)
                + t.getTerminations503().getOrDefault("SC", 0L);
    }

    /** A second's holders from every partition merged: only the largest are kept, enough to name the top ones. */
    private static void trim(Map<String, Long> holders) {
        if (holders.size() <= HOLDERS_KEPT) {
            return;
        }
        List<Map.Entry<String, Long>> all = new java.util.ArrayList<>(holders.entrySet());
        all.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        holders.clear();
        all.subList(0, HOLDERS_KEPT).forEach(e -> holders.put(e.getKey(), e.getValue()));
    }

    static final int HOLDERS_KEPT = 32;

    private void polled(HostState h, HaproxyStats s) {
        long t = s.getTs().toEpochMilli();
        for (FrontendStats fe : s.getFrontends()) {
            h.polled.computeIfAbsent(fe.getName(), k -> new PolledSeconds(settings.ringSeconds())).add(t, fe.getScur(), fe.getSlim());
            if (fe.getHolders() != null) {
                if (h.polledHolders == null) {
                    h.polledHolders = new java.util.LinkedHashMap<>();
                }
                PolledHolders before = h.polledHolders.get(fe.getName());
                if (before == null || before.at <= t) {
                    h.polledHolders.put(fe.getName(), PolledHolders.of(t, fe.getSessionsListed(), fe.getHolders()));
                }
            }
        }
        if (s.getCurrConns() != null) {
            if (h.polledProcess == null) {
                h.polledProcess = new PolledSeconds(settings.ringSeconds());
            }
            h.polledProcess.add(t, s.getCurrConns(), s.getMaxconn());
        }
    }

    private static void config(HostState h, LbConfig c) {
        if (c.getKind() == ConfigKind.haproxy_process) {
            h.processMaxconn = c.getMaxconn();
        } else if (c.getKind() == ConfigKind.haproxy_frontend && c.getFrontend() != null) {
            if (c.getMaxconn() == null) {
                h.frontendMaxconn.remove(c.getFrontend());
            } else {
                h.frontendMaxconn.put(c.getFrontend(), c.getMaxconn());
            }
        }
    }

    /** Terminations are reported per step; older ones no longer describe the frontend. */
    @Override
    public void stepped(HostState h, long at) {
        h.frontends.values().forEach(f -> f.recentTerminations.clear());
        // a frontend whose every second has left the ring says nothing any more: it goes, so frontends
        // that stop logging (renamed, removed) do not pile up on a host that keeps sending
        long ringMillis = settings.ringSeconds() * 1000L;
        h.frontends.values().removeIf(f -> at - f.lastSeen > ringMillis);
        // a frontend removed from HAProxy's configuration is polled no more: forget it once its ring is stale
        long stale = at - settings.ringSeconds() * 1000L;
        h.polled.values().removeIf(p -> p.lastSeen < stale);
        if (h.polledHolders != null) {
            h.polledHolders.values().removeIf(p -> p.at < stale);
            if (h.polledHolders.isEmpty()) {
                h.polledHolders = null;
            }
        }
        if (h.polledProcess != null && h.polledProcess.lastSeen < stale) {
            h.polledProcess = null;
        }
    }

    @Override
    public List<Detector<HostState>> detectors() {
        return detectors;
    }
}
