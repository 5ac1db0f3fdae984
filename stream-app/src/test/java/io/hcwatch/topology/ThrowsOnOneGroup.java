package io.hcwatch.topology;

import io.hcwatch.detect.Detection;
import io.hcwatch.detect.Detector;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.input.FleetInput;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet detection with one more detector that throws whenever it judges one target group, as
 * a detector with a bug for one group's data would. For tests of crash isolation.
 */
public final class ThrowsOnOneGroup implements Detection<FleetState, FleetInput> {

    private final Detection<FleetState, FleetInput> real;
    private final String badGroup;

    public ThrowsOnOneGroup(Detection<FleetState, FleetInput> real, String badGroup) {
        this.real = real;
        this.badGroup = badGroup;
    }

    @Override
    public FleetState newState(String key, FleetInput first) {
        return real.newState(key, first);
    }

    @Override
    public boolean apply(FleetState state, FleetInput record, long now) {
        return real.apply(state, record, now);
    }

    @Override
    public void step(FleetState state, long at) {
        real.step(state, at);
    }

    @Override
    public void stepped(FleetState state, long at) {
        real.stepped(state, at);
    }

    @Override
    public List<Detector<FleetState>> detectors() {
        List<Detector<FleetState>> all = new ArrayList<>(real.detectors());
        all.add((state, now) -> {
            if (badGroup.equals(state.targetGroup)) {
                throw new IllegalStateException("injected failure judging " + state.targetGroup);
            }
            return List.of();
        });
        return all;
    }
}
