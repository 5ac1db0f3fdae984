package io.hcwatch.input;

import io.hcwatch.avro.internal.TargetSeen;

/** A target named by a health check that did not parse: known to exist, its state unknown. */
public record UnreadableCheck(TargetSeen seen) implements Telemetry, FleetInput {

    @Override
    public long eventTime() {
        return seen.getTs();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.unreadableCheck(this);
    }

    @Override
    public Object avro() {
        return seen;
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.unreadableCheck(this);
    }
}
