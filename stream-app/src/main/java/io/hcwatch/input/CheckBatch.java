package io.hcwatch.input;

import io.hcwatch.avro.v1.HealthCheckResult;
import java.util.ArrayList;
import java.util.List;

/** Health checks of one target group from one input partition, in the order they were read: one record instead of one each. */
public record CheckBatch(List<HealthCheckResult> checks) implements Telemetry {

    /** The latest check's time. */
    @Override
    public long eventTime() {
        long latest = Long.MIN_VALUE;
        for (HealthCheckResult c : checks) {
            latest = Math.max(latest, c.getTs().toEpochMilli());
        }
        return latest;
    }

    @Override
    public List<Check> parts() {
        List<Check> out = new ArrayList<>(checks.size());
        for (HealthCheckResult c : checks) {
            out.add(new Check(c));
        }
        return out;
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.checkBatch(this);
    }

    @Override
    public Object avro() {
        return checks;
    }
}
