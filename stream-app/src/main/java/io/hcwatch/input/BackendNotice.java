package io.hcwatch.input;

import io.hcwatch.avro.v1.BackendEvent;

/** A backend's state message that is not about one check (HAProxy's "backend be has no server available!"). */
public record BackendNotice(BackendEvent event) implements Decoded, Telemetry, FleetInput {

    @Override
    public long eventTime() {
        return event.getTs().toEpochMilli();
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.backendNotice(this);
    }

    @Override
    public Object avro() {
        return event;
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.backendNotice(this);
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.backendNotice(this);
    }
}
