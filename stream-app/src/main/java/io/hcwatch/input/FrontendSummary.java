package io.hcwatch.input;

import io.hcwatch.avro.internal.HaproxyTraffic;

/** One second of one HAProxy host's frontend on one input partition. */
public record FrontendSummary(HaproxyTraffic traffic) implements Summary, HostInput {

    @Override
    public long eventTime() {
        return traffic.getBucketStart();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.frontendSummary(this);
    }

    @Override
    public Object avro() {
        return traffic;
    }

    @Override
    public <R> R accept(Pending.Cases<R> cases) {
        return cases.frontendSummary(this);
    }

    @Override
    public <R> R accept(Summary.Cases<R> cases) {
        return cases.frontendSummary(this);
    }

    @Override
    public <R> R accept(HostInput.Cases<R> cases) {
        return cases.frontendSummary(this);
    }
}
