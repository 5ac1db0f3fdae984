package io.hcwatch.input;

import io.hcwatch.avro.v1.HealthCheckResult;

/** One health check's result. */
public record Check(HealthCheckResult result) implements Decoded, Pending, FleetInput {

    @Override
    public long eventTime() {
        return result.getTs().toEpochMilli();
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.check(this);
    }

    @Override
    public Object avro() {
        return result;
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.check(this);
    }

    @Override
    public <R> R accept(Pending.Cases<R> cases) {
        return cases.check(this);
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.check(this);
    }
}
