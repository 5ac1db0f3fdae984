package io.hcwatch.input;

import io.hcwatch.avro.v1.HaproxyStats;

/** One poll of one HAProxy host by the collector: sessions and limits per frontend and per process. */
public record Poll(HaproxyStats stats) implements Decoded, Telemetry, HostInput {

    @Override
    public long eventTime() {
        return stats.getTs().toEpochMilli();
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.poll(this);
    }

    @Override
    public Object avro() {
        return stats;
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.poll(this);
    }

    @Override
    public <R> R accept(HostInput.Cases<R> cases) {
        return cases.poll(this);
    }
}
