package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The health checks of a timeout cut written out check by check, as an ALB logs them, with an Auto
 * Scaling group replacing what the ALB marks unhealthy: {@code targets} targets over three zones,
 * each checked every {@code intervalMs} on its own phase, all passing until {@code cutAt}. From the
 * cut, target j times out from its first check at or after {@code cutAt + j × spreadMs / targets}
 * (load moves onto fewer targets, one after another), its checks following {@code pattern} from
 * there ({@code T} a timeout, {@code .} a pass: its latency hovers around the timeout before it
 * stays over; the pattern starts with a timeout and ends with a pass), then timing out. The ALB
 * marks a target unhealthy at its {@value #UNHEALTHY_THRESHOLD}nd consecutive failure (the
 * registry's threshold when none is configured); {@code drainMs} later the Auto Scaling group
 * deregisters it and the ALB stops checking it, with a {@code draining} record or, as in the ALB's
 * health-check log, with silence. Its replacement registers {@value #LAUNCH_MS} ms after that and,
 * cold under the cut, times out from its first check in state {@code initial} until it too is
 * unhealthy and replaced. No check carries the target's state but {@code initial} and
 * {@code draining}: the registry derives the rest from the thresholds, as from a raw log line.
 */
final class CascadingFleet {

    static final int UNHEALTHY_THRESHOLD = 2;
    static final long LAUNCH_MS = 60_000;

    private final int targets;
    private final long intervalMs;
    private final long spreadMs;
    private final long drainMs;
    private final boolean drainingRecord;
    private final String pattern;
    private final List<HealthCheckResult> checks = new ArrayList<>();
    private int replacements;

    CascadingFleet(int targets, long intervalMs, long spreadMs, String pattern, long drainMs, boolean drainingRecord) {
        this.targets = targets;
        this.intervalMs = intervalMs;
        this.spreadMs = spreadMs;
        this.pattern = pattern;
        this.drainMs = drainMs;
        this.drainingRecord = drainingRecord;
    }

    /** Every check from {@code from} to {@code until}, the cut at {@code cutAt}, in event-time order. */
    List<HealthCheckResult> checks(long from, long cutAt, long until) {
        checks.clear();
        for (int j = 0; j < targets; j++) {
            long firstFailure = cutAt + j * spreadMs / targets;
            // target j's checks fall on its own phase: its first failure is one of them
            long phase = Math.floorMod(firstFailure - from, intervalMs);
            original("i-" + j, zone(j), from + phase, firstFailure, until);
        }
        checks.sort(Comparator.comparing(HealthCheckResult::getTs));
        return List.copyOf(checks);
    }

    private void original(String id, String zone, long firstCheck, long firstFailure, long until) {
        long at = firstCheck;
        for (; at < firstFailure && at <= until; at += intervalMs) {
            checks.add(check(id, zone, at, CheckOutcome.pass, 150, null));
        }
        for (int k = 0; k < pattern.length() && at <= until; k++, at += intervalMs) {
            boolean fails = pattern.charAt(k) == 'T';
            checks.add(check(id, zone, at, fails ? CheckOutcome.timeout : CheckOutcome.pass, fails ? 2001 : 1900, null));
        }
        failUntilReplaced(id, zone, at, until, null);
    }

    /** Times out from {@code at} on; unhealthy at the threshold, deregistered drainMs later, then replaced. */
    private void failUntilReplaced(String id, String zone, long at, long until, TargetState initialState) {
        int failures = 0;
        long unhealthyAt = -1;
        for (; at <= until && (unhealthyAt < 0 || at < unhealthyAt + drainMs); at += intervalMs) {
            failures++;
            checks.add(check(id, zone, at, CheckOutcome.timeout, 2001, failures < UNHEALTHY_THRESHOLD ? initialState : null));
            if (failures == UNHEALTHY_THRESHOLD) {
                unhealthyAt = at;
            }
        }
        long deregisteredAt = unhealthyAt + drainMs;
        if (unhealthyAt < 0 || deregisteredAt > until) {
            return;
        }
        if (drainingRecord) {
            checks.add(check(id, zone, deregisteredAt, CheckOutcome.other, 0, TargetState.draining));
        }
        long registered = deregisteredAt + LAUNCH_MS;
        failUntilReplaced("r-" + replacements++ + "-" + zone, zone, registered + intervalMs / 2, until, TargetState.initial);
    }

    private HealthCheckResult check(String id, String zone, long at, CheckOutcome outcome, int latencyMs, TargetState state) {
        HealthCheckResult.Builder b = Checks.check(Fleet.TG, id, zone, at, outcome, latencyMs).setState(state);
        if (state == TargetState.initial) {
            b.setReason("Elb.InitialHealthChecking");
        } else if (state == TargetState.draining) {
            b.setReason("Target.DeregistrationInProgress");
        }
        return b.build();
    }

    static String zone(int j) {
        return Checks.zone(j, 3);
    }
}
