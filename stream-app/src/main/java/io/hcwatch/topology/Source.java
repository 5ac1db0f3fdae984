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

    /** Whether lines of this source are summed before leaving their partition. */
    public boolean isAccessLog() {
        return this == ALB || this == HAPROXY;
    }
}
