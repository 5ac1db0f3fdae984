package io.hcwatch.parse;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import java.util.Locale;

/**
 * Maps what an ALB health-check log entry says (health status, HTTP status code, reason code) to
 * {@link CheckOutcome} and {@link TargetState}.
 *
 * <p>Reason codes are the target-health codes of the ELB API ({@code Target.Timeout},
 * {@code Target.ResponseCodeMismatch}, {@code Target.FailedHealthChecks},
 * {@code Elb.InitialHealthChecking}, ...) and the health-check reason codes of the EC2
 * {@code ApplicationStatusReason} shape ({@code ResponseTimeout}, {@code ConnectionRefused}, ...);
 * the {@code Target.} prefix is optional so both spellings map alike. A connection timeout counts
 * as a timeout because it consumed the whole check timeout, which is what the latency-headroom
 * detector looks for.
 */
final class AlbHealthCheckOutcomes {

    private AlbHealthCheckOutcomes() {
    }

    /** The target's state named by the status field, or null when the field names a check result. */
    static TargetState stateOf(String status) {
        if (status == null) {
            return null;
        }
        return switch (status.toLowerCase(Locale.ROOT)) {
            case "healthy" -> TargetState.healthy;
            case "unhealthy", "unhealthy.draining" -> TargetState.unhealthy;
            case "initial" -> TargetState.initial;
            case "draining" -> TargetState.draining;
            case "unused" -> TargetState.unused;
            case "unavailable" -> TargetState.unavailable;
            default -> null;
        };
    }

    static CheckOutcome outcomeOf(String status, Integer statusCode, String reasonCode) {
        CheckOutcome byReason = outcomeOfReason(reasonCode);
        if (byReason != null) {
            return byReason;
        }
        String s = status == null ? "" : status.toLowerCase(Locale.ROOT);
        switch (s) {
            case "healthy", "pass", "passed", "success", "succeeded":
                return CheckOutcome.pass;
            case "unhealthy", "fail", "failed", "failure":
                // a failed check that got an HTTP answer failed on its status code
                return statusCode != null ? CheckOutcome.http_status : CheckOutcome.other;
            default:
                return CheckOutcome.other;
        }
    }

    /** The outcome a reason code implies on its own, or null when it names no specific cause. */
    static CheckOutcome outcomeOfReason(String reasonCode) {
        if (reasonCode == null) {
            return null;
        }
        String code = reasonCode.startsWith("Target.") ? reasonCode.substring("Target.".length()) : reasonCode;
        return switch (code) {
            case "Timeout", "ResponseTimeout", "ConnectionTimeout" -> CheckOutcome.timeout;
            case "ResponseCodeMismatch" -> CheckOutcome.http_status;
            case "ConnectionRefused", "ConnectionReset", "ConnectionFailed", "ConnectionError" ->
                    CheckOutcome.connect_error;
            case "ResponseCodeMatched" -> CheckOutcome.pass;
            default -> null;
        };
    }
}
