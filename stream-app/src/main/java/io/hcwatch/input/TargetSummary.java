package io.hcwatch.input;

import io.hcwatch.avro.internal.TargetTraffic;

/** One second of one target group's traffic on one input partition. */
public record TargetSummary(TargetTraffic traffic) implements Summary, FleetInput {

    @Override
    public long eventTime() {
        return traffic.getBucketStart();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    @Override
    public Object avro() {
        return traffic;
    }

    @Override
    public <R> R accept(Pending.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    @Override
    public <R> R accept(Summary.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.targetSummary(this);
    }
}
