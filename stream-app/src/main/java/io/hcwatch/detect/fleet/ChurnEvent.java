package io.hcwatch.detect.fleet;

/** A new target marked unhealthy before it was ever healthy: a replacement killed while warming up. */
public final class ChurnEvent {
    public String target;
    public String zone;
    public long joinedAt;
    public long unhealthyAt;
    public Integer firstLatencyMs;
    public String reason;

    public ChurnEvent() {
    }
}
