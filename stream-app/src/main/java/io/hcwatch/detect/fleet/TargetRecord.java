package io.hcwatch.detect.fleet;

/** What the registry knows about one target; a plain bean kept in the target group's state. */
public final class TargetRecord {
    public String id;
    public String ip;
    public Integer port;
    public String zone;
    public String source;
    public long firstSeen;
    public Long registeredAt;
    public long lastSeen;
    /**
     * initial, healthy, unhealthy, draining, unused or unavailable as its checks report; unknown
     * when its latest check could not be read (it exists, but nothing is known of its health).
     */
    public String state = "initial";
    public boolean sawInitial;
    public long firstHealthyAt;
    public String lastOutcome;
    public long lastFailureAt;
    public long firstFailureAt;
    public long lastPassAt;
    /**
     * The first pass of its current run of passes (0 in state saved before it was kept): since
     * when it has been passing, which its latest pass alone does not tell when a producer
     * republishes unchanged targets.
     */
    public long firstPassAt;
    public String lastReason;
    public Integer lastStatusCode;
    public Integer lastLatencyMs;
    public Integer firstLatencyMs;
    public int consecutiveFailures;
    public int consecutivePasses;
    public long unhealthySince;
    /** When it left the target group (drained, unused, or silent); 0 while it is a member. */
    public long departedAt;

    public TargetRecord() {
    }

    public boolean everHealthy() {
        return firstHealthyAt > 0;
    }

    public boolean isHealthy() {
        return "healthy".equals(state);
    }

    /** Known to exist, with no readable state: neither healthy nor unhealthy. */
    public boolean isUnknown() {
        return UNKNOWN.equals(state);
    }

    public static final String UNKNOWN = "unknown";

    public boolean lastCheckFailed() {
        return lastOutcome != null && !"pass".equals(lastOutcome);
    }

    /**
     * Failing now: the latest check failed, inside the window ending at {@code now}. HAProxy logs
     * a server only when its state changes, so a server it reported DOWN stays failing until UP.
     */
    public boolean failingWithin(long now, long windowMillis) {
        if (!lastCheckFailed()) {
            return false;
        }
        return lastFailureAt > now - windowMillis || ("haproxy".equals(source) && "unhealthy".equals(state));
    }

    /**
     * Failed a check inside the window ending at {@code now} and not recovered since: fewer than
     * {@code passesToRecover} passes in a row after that failure. A target whose check latency
     * hovers around the timeout passes between its timeouts, and a pass alone would hide it from
     * a correlated failure while the fleet goes down check by check; the load balancer itself
     * counts it healthy again only after its healthy threshold. HAProxy logs a server's state
     * changes only, and UP is that recovery: {@link #failingWithin}.
     */
    public boolean failedUnrecovered(long now, long windowMillis, int passesToRecover) {
        if ("haproxy".equals(source)) {
            return failingWithin(now, windowMillis);
        }
        return lastFailureAt > 0 && lastFailureAt > now - windowMillis && (lastCheckFailed() || consecutivePasses < passesToRecover);
    }

    public String zoneOrUnknown() {
        return zone == null ? "unknown" : zone;
    }

    public String address() {
        return ip == null || port == null ? null : ip + ":" + port;
    }
}
