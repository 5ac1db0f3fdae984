package io.hcwatch.input;

import io.hcwatch.avro.internal.UpstreamProgress;

/** Not telemetry: an upstream's report of how far it has sent everything on (see io.hcwatch.time.MonitorClock). */
public record Progress(UpstreamProgress progress) implements Payload {

    public Progress(long time, boolean idle) {
        this(new UpstreamProgress(time, idle));
    }

    @Override
    public long eventTime() {
        return progress.getTime();
    }

    public boolean idle() {
        return progress.getIdle();
    }

    @Override
    public <R> R accept(Payload.Cases<R> cases) {
        return cases.progress(this);
    }

    @Override
    public Object avro() {
        return progress;
    }
}
