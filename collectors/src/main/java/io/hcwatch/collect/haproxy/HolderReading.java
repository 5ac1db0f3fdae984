package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.SlotHolder;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * When a frontend is near its limit, who holds its sessions: a tarpitted or slow request is logged
 * only when it ends, so the clients filling a frontend now are the ones not yet in the logs, and
 * only the runtime API's {@code show sess} lists them. Read only for frontends at
 * {@code haproxy.holders.at-percent} of their {@code slim} or more, since the answer lists every
 * session of the process (collectors/README has the cost); a failure to read costs the holders of
 * that poll, never the poll.
 */
final class HolderReading {

    /** The holders read at one poll; NONE when no frontend was near its limit or they could not be read. */
    record Holders(Map<String, List<SlotHolder>> byFrontend, Map<String, Integer> listedByFrontend) {
        static final Holders NONE = new Holders(Map.of(), Map.of());

        List<SlotHolder> top(String frontend) {
            return byFrontend.get(frontend);
        }

        Integer listed(String frontend) {
            return listedByFrontend.get(frontend);
        }
    }

    private final int atPercent;
    private final int top;

    HolderReading(int atPercent, int top) {
        this.atPercent = atPercent;
        this.top = top;
    }

    /** Frontends whose sessions are at {@code atPercent} of their limit or more. */
    Set<String> nearFull(Snapshot s) {
        Set<String> near = new LinkedHashSet<>();
        for (Snapshot.Frontend f : s.frontends()) {
            if (f.slim() != null && f.slim() > 0 && (long) f.scur() * 100 >= (long) atPercent * f.slim()) {
                near.add(f.name());
            }
        }
        return near;
    }

    /** @param failed told the reason and message when the sessions could not be read */
    Holders read(Snapshot s, StatsSource source, BiConsumer<String, String> failed) {
        Set<String> near = nearFull(s);
        if (near.isEmpty()) {
            return Holders.NONE;
        }
        SessionSources sessions;
        try {
            sessions = source.sessions(near);
        } catch (PollException e) {
            failed.accept(e.reason, e.getMessage());
            return Holders.NONE;
        }
        if (sessions == null) {
            return Holders.NONE;
        }
        Map<String, List<SlotHolder>> byFrontend = new HashMap<>();
        Map<String, Integer> listed = new HashMap<>(sessions.listed());
        for (String frontend : near) {
            byFrontend.put(frontend, sessions.top(frontend, top));
            listed.putIfAbsent(frontend, 0);
        }
        return new Holders(byFrontend, listed);
    }
}
