package io.hcwatch.input;

import io.hcwatch.avro.internal.FeedSeen;

/** A feed (a source from one HAProxy host or load balancer) sent data up to its time: for the feed monitor. */
public record FeedHeartbeat(FeedSeen seen) implements Telemetry {

    @Override
    public long eventTime() {
        return seen.getTs();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.feedHeartbeat(this);
    }

    @Override
    public Object avro() {
        return seen;
    }
}
