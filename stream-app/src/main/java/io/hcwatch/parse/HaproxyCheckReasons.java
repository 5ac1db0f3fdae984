package io.hcwatch.parse;

import io.hcwatch.avro.v1.CheckOutcome;

/**
 * HAProxy's check descriptions (src/check.c {@code check_statuses[].desc}) mapped to outcomes.
 * A Layer4 timeout is a connect that ran out the check timeout, so it is a timeout like the Layer7
 * one; refused/reset connects and TLS handshake failures are connect errors.
 */
final class HaproxyCheckReasons {

    private HaproxyCheckReasons() {
    }

    static CheckOutcome outcomeOf(String reason) {
        if (reason == null) {
            return CheckOutcome.other;
        }
        return switch (reason) {
            case "Layer4 timeout", "Layer6 timeout", "Layer7 timeout", "External check timeout",
                    "Agent timeout" -> CheckOutcome.timeout;
            case "Layer4 connection problem", "Socket error", "Layer6 invalid response" -> CheckOutcome.connect_error;
            case "Layer7 wrong status" -> CheckOutcome.http_status;
            case "Layer4 check passed", "Layer6 check passed", "Layer7 check passed",
                    "Layer7 check conditionally passed", "External check passed" -> CheckOutcome.pass;
            default -> CheckOutcome.other;
        };
    }
}
