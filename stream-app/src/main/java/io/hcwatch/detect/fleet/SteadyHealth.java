package io.hcwatch.detect.fleet;

import java.util.Collection;

/**
 * Healthy targets that hold a zone (or the pool) up. Where targets failed within the window, a
 * target whose passing run began less than a window ago, after hcwatch first heard of it (it was
 * failing or still registering before), is recovering, not holding it up: during
 * a fleet-wide failure a zone's count flaps between 0 and 1 as replacements pass their first
 * checks and fail again, and each flap would be a new DNS verdict. Where nothing failed within the
 * window (a start, a quiet fleet) every healthy target counts.
 *
 * @param recovering healthy targets not counted: passing for less than the window after failures
 */
record SteadyHealth(int healthy, int recovering) {

    /**
     * The targets of {@code zone} (null: the whole pool) among {@code members}; failures of targets
     * that left it within the window (replaced) count as its failures.
     */
    static SteadyHealth of(FleetState s, Collection<TargetRecord> members, String zone, long now, long windowMillis) {
        boolean failedLately = failedWithin(members, now, windowMillis);
        if (!failedLately) {
            for (TargetRecord t : s.registry.departed.values()) {
                if ((zone == null || zone.equals(t.zone)) && t.departedAt > now - windowMillis && t.lastFailureAt > now - windowMillis) {
                    failedLately = true;
                    break;
                }
            }
        }
        int healthy = 0;
        int recovering = 0;
        for (TargetRecord t : members) {
            if (!t.isHealthy()) {
                continue;
            }
            // a run that began at the target's first check is all hcwatch knows of it (a start), not a
            // recovery; firstPassAt is 0 in state saved before it was kept: counted, as before
            if (failedLately && t.firstPassAt > now - windowMillis && t.firstPassAt > t.firstSeen) {
                recovering++;
            } else {
                healthy++;
            }
        }
        return new SteadyHealth(healthy, recovering);
    }

    private static boolean failedWithin(Collection<TargetRecord> members, long now, long windowMillis) {
        for (TargetRecord t : members) {
            if (t.lastFailureAt > now - windowMillis) {
                return true;
            }
        }
        return false;
    }
}
