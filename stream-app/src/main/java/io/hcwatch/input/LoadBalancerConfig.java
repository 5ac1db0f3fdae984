package io.hcwatch.input;

import io.hcwatch.avro.v1.LbConfig;

/** A load balancer's configuration: a target group's, an HAProxy frontend's or process's. */
public record LoadBalancerConfig(LbConfig config) implements Decoded, Telemetry, FleetInput, HostInput {

    @Override
    public long eventTime() {
        return config.getTs().toEpochMilli();
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.config(this);
    }

    @Override
    public Object avro() {
        return config;
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.config(this);
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.config(this);
    }

    @Override
    public <R> R accept(HostInput.Cases<R> cases) {
        return cases.config(this);
    }
}
