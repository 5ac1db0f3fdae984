package io.hcwatch.collect.alb;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DescribeTargetHealth's states and reason codes in the terms of a HealthCheckResult, mapped as the
 * stream app maps the same codes from ALB health-check logs (AlbHealthCheckOutcomes): a timeout is a
 * timeout, a wrong status an http_status, a failed connection or malformed answer a connect_error.
 * Public for the simulator, which publishes what the collector would.
 */
public final class AlbChecks {

    private static final Pattern CODES = Pattern.compile("\\[(\\d{3})");

    private AlbChecks() {
    }

    /**
     * An unknown state (newer than this code) is null. {@code unhealthy.draining} is a target that
     * failed its checks and finishes its in-flight requests before its connections are cut
     * (unhealthy connection termination off): it failed and stays registered, as the ALB
     * health-check log parser reads it, not one on its way out like {@code draining}.
     */
    static TargetState state(String state) {
        if (state == null) {
            return null;
        }
        return switch (state) {
            case "initial" -> TargetState.initial;
            case "healthy" -> TargetState.healthy;
            case "unhealthy", "unhealthy.draining" -> TargetState.unhealthy;
            case "unused" -> TargetState.unused;
            case "draining" -> TargetState.draining;
            case "unavailable" -> TargetState.unavailable;
            default -> null;
        };
    }

    public static CheckOutcome outcome(TargetState state, String reason) {
        if (state == TargetState.healthy) {
            return CheckOutcome.pass;
        }
        if (reason == null) {
            return CheckOutcome.other;
        }
        return switch (reason) {
            case "Target.Timeout" -> CheckOutcome.timeout;
            case "Target.ResponseCodeMismatch" -> CheckOutcome.http_status;
            case "Target.FailedHealthChecks" -> CheckOutcome.connect_error;
            default -> CheckOutcome.other;
        };
    }

    /** The first code of "Health checks failed with these codes: [502]" (Target.ResponseCodeMismatch). */
    static Integer statusCode(String reason, String description) {
        if (!"Target.ResponseCodeMismatch".equals(reason) || description == null) {
            return null;
        }
        Matcher m = CODES.matcher(description);
        return m.find() ? Integer.valueOf(m.group(1)) : null;
    }

    /** Whether the load balancer counts the target as registered: not unused, not on its way out. */
    static boolean registered(TargetState state) {
        return state != null && state != TargetState.unused && state != TargetState.draining;
    }
}
