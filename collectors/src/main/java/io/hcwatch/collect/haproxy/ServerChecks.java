package io.hcwatch.collect.haproxy;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.TargetState;
import java.util.Map;

/**
 * HAProxy's server {@code status} and {@code check_status} (src/check.c {@code check_statuses},
 * src/stats.c) in the terms of a HealthCheckResult, mapped as the stream app maps the same checks
 * from HAProxy's log lines (HaproxyCheckReasons): a refused or reset connect, a socket error or a
 * bad TLS/L6 answer is a connect error, a wrong HTTP status an http_status, any timeout a timeout.
 */
final class ServerChecks {

    /** The descriptions HAProxy logs as "reason:" and shows as check_desc, for versions without check_desc. */
    private static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry("UNK", "Unknown"),
            Map.entry("INI", "Initializing"),
            Map.entry("HANA", "Health analyze"),
            Map.entry("SOCKERR", "Socket error"),
            Map.entry("L4OK", "Layer4 check passed"),
            Map.entry("L4TOUT", "Layer4 timeout"),
            Map.entry("L4CON", "Layer4 connection problem"),
            Map.entry("L6OK", "Layer6 check passed"),
            Map.entry("L6TOUT", "Layer6 timeout"),
            Map.entry("L6RSP", "Layer6 invalid response"),
            Map.entry("L7TOUT", "Layer7 timeout"),
            Map.entry("L7RSP", "Layer7 invalid response"),
            Map.entry("L7OK", "Layer7 check passed"),
            Map.entry("L7OKC", "Layer7 check conditionally passed"),
            Map.entry("L7STS", "Layer7 wrong status"),
            Map.entry("PROCERR", "External check error"),
            Map.entry("PROCTOUT", "External check timeout"),
            Map.entry("PROCOK", "External check passed"));

    private ServerChecks() {
    }

    /** Whether the server is health-checked at all ("no check" servers are UP by fiat). */
    static boolean isChecked(String status) {
        return status != null && !status.startsWith("no check");
    }

    /**
     * The server's state after its last check. "UP 1/3" (failing, not yet down) is still healthy and
     * "DOWN 1/2" (passing, not yet up) still unhealthy, as HAProxy routes; NOLB (disable-on-404) and
     * DRAIN take no new traffic; MAINT is out of service by an operator.
     */
    static TargetState state(String status) {
        if (status == null) {
            return null;
        }
        if (status.startsWith("UP")) {
            return TargetState.healthy;
        }
        if (status.startsWith("DOWN")) {
            return TargetState.unhealthy;
        }
        if (status.startsWith("NOLB") || status.startsWith("DRAIN")) {
            return TargetState.draining;
        }
        if (status.startsWith("MAINT")) {
            return TargetState.unused;
        }
        return null;
    }

    static CheckOutcome outcome(String checkStatus) {
        if (checkStatus == null) {
            return CheckOutcome.other;
        }
        return switch (checkStatus) {
            case "L4OK", "L6OK", "L7OK", "L7OKC", "PROCOK" -> CheckOutcome.pass;
            case "L4TOUT", "L6TOUT", "L7TOUT", "PROCTOUT" -> CheckOutcome.timeout;
            case "L4CON", "SOCKERR", "L6RSP" -> CheckOutcome.connect_error;
            case "L7STS" -> CheckOutcome.http_status;
            default -> CheckOutcome.other;
        };
    }

    /** check_desc when HAProxy gives it, else the description HAProxy has for the code. */
    static String reason(String checkStatus, String checkDescription) {
        if (checkDescription != null) {
            return checkDescription;
        }
        return checkStatus == null ? null : DESCRIPTIONS.get(checkStatus);
    }
}
