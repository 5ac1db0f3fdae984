package io.hcwatch.topology;

import io.hcwatch.topology.Routed.Destination;
import java.util.EnumSet;
import java.util.Set;

/** The inputs of docs/contract.md ("Topics"); {@link #id()} names them in dead letters, metrics and replay flags. */
public enum Source {
    ALB("alb", EnumSet.of(Destination.FLEET, Destination.FLOOD)),
    ALB_HEALTH("alb-health", EnumSet.of(Destination.FLEET)),
    HAPROXY("haproxy", EnumSet.of(Destination.FLEET, Destination.HOST, Destination.FLOOD)),
    HEALTH("health", EnumSet.of(Destination.FLEET)),
    /** The HAProxy collector's polls of each host's runtime API: sessions and limits per frontend and per process. */
    HAPROXY_STATS("haproxy-stats", EnumSet.of(Destination.HOST)),
    CONFIG("config", EnumSet.noneOf(Destination.class));

    private final String id;
    private final Set<Destination> paced;

    Source(String id, Set<Destination> paced) {
        this.id = id;
        this.paced = paced;
    }

    /**
     * The monitors whose time this source paces: they wait for each of its partitions to report
     * progress before judging. Configurations pace nothing: they change rarely, and a partition
     * that is quiet for hours must not hold detection back.
     */
    public Set<Destination> paces() {
        return paced;
    }

    public String id() {
        return id;
    }

    /**
     * Whether this source's ingest holds records before they leave the partition (traffic
     * summaries, batches of health checks), in a state store so a restart sends them on.
     */
    public boolean holdsPending() {
        return this != CONFIG;
    }
}
