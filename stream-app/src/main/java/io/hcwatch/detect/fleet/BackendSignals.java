package io.hcwatch.detect.fleet;

/** What HAProxy said of a backend as a whole: "has no server available!", and its own count of active servers left. */
public final class BackendSignals {
    public long noServerAt;
    public String noServerMessage;
    /** HAProxy's own count of active servers in the backend, from its latest server state message. */
    public Integer activeServersLeft;

    public BackendSignals() {
    }
}
