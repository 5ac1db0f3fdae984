package io.hcwatch.simulate;

import java.util.List;

/**
 * What the simulated estate looks like right now (its truth, not hcwatch's view), for progress
 * displays: the simulated clock, records written so far, and the health of each target group and
 * HAProxy frontend.
 */
public record SimulationStatus(long simulatedTime, long records, List<GroupHealth> groups, List<FrontendLoad> frontends) {

    /** Healthy and registered targets of an ALB target group. */
    public record GroupHealth(String targetGroup, int healthy, int registered) {
    }

    /** Open connections of an HAProxy frontend against its maxconn. */
    public record FrontendLoad(String host, String frontend, int connections, int maxconn) {
    }

    public GroupHealth group(String name) {
        return groups.stream().filter(g -> g.targetGroup().equals(name)).findFirst().orElse(null);
    }
}
