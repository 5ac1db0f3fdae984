package io.hcwatch.detect.flood;

import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Fmt;
import io.hcwatch.detect.Scope;
import io.hcwatch.detect.Severity;
import io.hcwatch.traffic.SpaceSaving;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * client_flood: one client (IPv4 address or IPv6 /64) or one request key sends at least
 * min-share of a frontend's (or ALB's) requests at min-rate or more, summed over the hosts
 * that serve it. Names the addresses to block and warns when tarpit is in use: tarpit holds a
 * socket per request and cannot slow a client that opens connections in parallel.
 */
public final class ClientFloodDetector implements Detector<FloodState> {

    private final FloodSettings settings;

    public ClientFloodDetector(FloodSettings settings) {
        this.settings = settings;
    }

    @Override
    public List<Finding> judge(FloodState s, long now) {
        long window = settings.windowMillis();
        int capacity = settings.capacity();
        if (!anyCanQualify(s, now, window, capacity)) {
            return List.of();
        }
        SpaceSaving[] sketches = s.window(now, window, capacity);
        SpaceSaving clients = sketches[0];
        SpaceSaving keys = sketches[1];
        long requests = 0;
        long tarpitted = 0;
        Map<String, Long> byHost = new LinkedHashMap<>();
        long first = Long.MAX_VALUE;
        for (FloodState.Second sec : s.seconds) {
            if (sec.start > now - window && sec.start <= now) {
                requests += sec.requests;
                tarpitted += sec.tarpitted;
                sec.requestsByHost.forEach((h, n) -> byHost.merge(h, n, Long::sum));
                first = Math.min(first, sec.start);
            }
        }
        if (requests == 0) {
            return List.of();
        }
        double seconds = window / 1000.0;
        double minShare = settings.minShare();
        double minRate = settings.minRate();
        int top = settings.top();
        List<HeavyHitter> topClients = clients.top(top);
        List<Finding> out = new ArrayList<>();
        List<String> block = new ArrayList<>();
        for (HeavyHitter h : topClients) {
            long guaranteed = h.getCount() - h.getError();
            if (guaranteed >= minShare * requests && guaranteed / seconds >= minRate) {
                block.add(h.getKey());
            }
        }
        String topList = describe(topClients, seconds);
        for (String client : block) {
            HeavyHitter h = topClients.stream().filter(c -> c.getKey().equals(client)).findFirst().orElseThrow();
            // the guaranteed count (what fired), not the sketch's upper bound
            double rate = (h.getCount() - h.getError()) / seconds;
            double share = (double) (h.getCount() - h.getError()) / requests;
            String summary = "client " + client + " sent " + Fmt.pct(share) + " of the requests to " + s.platform + " "
                    + s.scope + " (" + Math.round(rate) + " req/s over " + Fmt.duration(window)
                    + (byHost.size() > 1 ? " across " + byHost.size() + " hosts" : "") + ")"
                    + (tarpitted > 0 ? "; tarpit is in use and holds a socket per request" : "");
            out.add(finding(s, "client:" + client, client, summary, details(h, rate, share, requests, tarpitted, byHost,
                    topList, block, keys.top(top), seconds), first, now));
        }
        for (HeavyHitter k : keys.top(top)) {
            long guaranteed = k.getCount() - k.getError();
            if (guaranteed >= minShare * requests && guaranteed / seconds >= minRate && block.isEmpty()) {
                double rate = guaranteed / seconds;
                double share = (double) guaranteed / requests;
                String summary = "request key \"" + k.getKey() + "\" got " + Fmt.pct(share) + " of the requests to " + s.platform
                        + " " + s.scope + " (" + Math.round(rate) + " req/s) from many clients; top clients " + topList
                        + (tarpitted > 0 ? "; tarpit is in use and holds a socket per request" : "");
                out.add(finding(s, "key:" + k.getKey(), null, summary, details(k, rate, share, requests, tarpitted, byHost,
                        topList, block, keys.top(top), seconds), first, now));
            }
        }
        return out;
    }

    /**
     * Whether any client or request key can meet the thresholds in the window. A key's guaranteed
     * count over the window is at most the sum, over its seconds, of the largest count of that
     * second, so when that sum is below both thresholds nothing can fire and the window's sketches
     * need not be merged. Exact, and it spares the merge on nearly every evaluation of normal traffic.
     */
    private boolean anyCanQualify(FloodState s, long now, long window, int capacity) {
        long requests = 0;
        long clientBound = 0;
        long keyBound = 0;
        for (FloodState.Second sec : s.seconds) {
            if (sec.start > now - window && sec.start <= now) {
                requests += sec.requests;
                clientBound += sec.maxClientCount(capacity);
                keyBound += sec.maxKeyCount(capacity);
            }
        }
        double needed = Math.max(settings.minShare() * requests, settings.minRate() * window / 1000.0);
        return requests > 0 && (clientBound >= needed || keyBound >= needed);
    }

    private Map<String, String> details(HeavyHitter h, double rate, double share, long requests, long tarpitted,
                                        Map<String, Long> byHost, String topList, List<String> block,
                                        List<HeavyHitter> topKeys, double seconds) {
        return Finding.newDetails()
                .put("key", h.getKey())
                .put("rate_rps", Math.round(rate))
                .put("share", Fmt.pct(share))
                .put("count_error_bound", h.getError())
                .put("requests_in_window", requests)
                .put("scope_rate_rps", Math.round(requests / seconds))
                .put("top_clients", topList)
                .put("top_request_keys", describe(topKeys, seconds))
                .put("block", block.isEmpty() ? "none: many clients share the key" : String.join(",", block))
                .put("hosts", byHost.isEmpty() ? null : describeHosts(byHost, seconds))
                .put("tarpit_in_use", tarpitted > 0)
                .put("tarpit_warning", tarpitted > 0
                        ? "tarpit holds one socket per request until its timeout; it cannot slow a client that opens"
                        + " connections in parallel and fills maxconn instead: deny or rate-limit at the edge" : null)
                .build();
    }

    private static Finding finding(FloodState s, String key, String client, String summary, Map<String, String> details,
                                   long first, long now) {
        Scope scope = "alb".equals(s.platform)
                ? new Scope(s.scope, null, null, null, null, client)
                : new Scope(null, null, null, null, s.scope, client);
        return new Finding(AlertType.CLIENT_FLOOD, AlertType.CLIENT_FLOOD.id() + "/" + s.scope + "/" + key, Severity.ERROR,
                scope, summary, details, Math.min(first, now), now);
    }

    private static String describe(List<HeavyHitter> hitters, double seconds) {
        StringBuilder sb = new StringBuilder();
        for (HeavyHitter h : hitters) {
            sb.append(sb.length() > 0 ? ", " : "").append(h.getKey()).append(" ").append(Math.round(h.getCount() / seconds))
                    .append(" req/s");
        }
        return sb.toString();
    }

    private static String describeHosts(Map<String, Long> byHost, double seconds) {
        StringBuilder sb = new StringBuilder();
        byHost.forEach((h, n) -> sb.append(sb.length() > 0 ? "," : "").append(h).append('=')
                .append(Math.round(n / seconds)).append("req/s"));
        return sb.toString();
    }
}
