package io.hcwatch.topology;

/** The inputs of SPEC section 2; {@link #id()} names them in dead letters, metrics and replay flags. */
public enum Source {
    ALB("alb"),
    ALB_HEALTH("alb-health"),
    HAPROXY("haproxy"),
    HEALTH("health"),
    CONFIG("config");

    private final String id;

    Source(String id) {
        this.id = id;
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
