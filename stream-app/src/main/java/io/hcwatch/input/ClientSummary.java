package io.hcwatch.input;

import io.hcwatch.avro.internal.ClientTraffic;

/** One second of one client scope (an HAProxy frontend, an ALB) on one host and input partition: its clients and request keys. */
public record ClientSummary(ClientTraffic traffic) implements Summary {

    @Override
    public long eventTime() {
        return traffic.getBucketStart();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.clientSummary(this);
    }

    @Override
    public Object avro() {
        return traffic;
    }

    @Override
    public <R> R accept(Pending.Cases<R> cases) {
        return cases.clientSummary(this);
    }

    @Override
    public <R> R accept(Summary.Cases<R> cases) {
        return cases.clientSummary(this);
    }
}
