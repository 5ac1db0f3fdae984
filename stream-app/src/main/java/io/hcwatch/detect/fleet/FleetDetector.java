package io.hcwatch.detect.fleet;

import io.hcwatch.detect.Finding;
import java.util.List;

/** A detector over one target group's state at event time {@code now}; plain and deterministic. */
public interface FleetDetector {

    List<Finding> evaluate(FleetState state, long now);
}
