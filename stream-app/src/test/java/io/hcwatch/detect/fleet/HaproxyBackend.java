package io.hcwatch.detect.fleet;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;

/**
 * Health-check results of one HAProxy backend as {@code collect haproxy} publishes them from
 * {@code show stat} (its CheckTracker): the host as lb, the backend as target group, the server as
 * target, no zone, check_duration as latency, check_desc as reason, the backend's settings from
 * haproxy.cfg ({@code timeout check} as the timeout, {@code inter} as the interval), and state
 * {@code initial} registered at the process start while a server has not passed since HAProxy started.
 */
final class HaproxyBackend {

    static final String HOST = "lb1";

    private final String backend;
    private final CheckConfig check;
    private final long processStart;

    /**
     * @param checkTimeoutMs {@code timeout check}
     * @param interMs        {@code inter}
     */
    HaproxyBackend(String backend, int checkTimeoutMs, int interMs, long processStart) {
        this.backend = backend;
        this.check = CheckConfig.newBuilder().setPath("/health").setTimeoutMs(checkTimeoutMs).setIntervalMs(interMs)
                .setHealthyThreshold(2).setUnhealthyThreshold(3).build();
        this.processStart = processStart;
    }

    /** A server that has passed since HAProxy started: {@code UP} (or {@code UP 1/3}) or {@code DOWN} as it says. */
    HealthCheckResult server(String server, int port, long at, String checkStatus, int durationMs, TargetState state) {
        return record(server, port, at, checkStatus, durationMs, state, false);
    }

    /**
     * A server that has not passed since HAProxy (re)started: not listening yet, slow from the
     * start, or not yet checked ({@code INI}, no duration).
     */
    HealthCheckResult starting(String server, int port, long at, String checkStatus, Integer durationMs) {
        return record(server, port, at, checkStatus, durationMs, TargetState.initial, true);
    }

    private HealthCheckResult record(String server, int port, long at, String checkStatus, Integer durationMs, TargetState state,
                                     boolean starting) {
        CheckOutcome outcome;
        String reason;
        Integer code = null;
        switch (checkStatus) {
            case "L7OK" -> {
                outcome = CheckOutcome.pass;
                reason = "Layer7 check passed";
                code = 200;
            }
            case "L7TOUT" -> {
                outcome = CheckOutcome.timeout;
                reason = "Layer7 timeout";
            }
            case "L4CON" -> {
                outcome = CheckOutcome.connect_error;
                reason = "Layer4 connection problem";
            }
            case "INI" -> {
                outcome = CheckOutcome.other;
                reason = "Initializing";
            }
            default -> throw new IllegalArgumentException(checkStatus);
        }
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(at))
                .setSource("haproxy")
                .setLb(HOST)
                .setTargetGroup(backend)
                .setTarget(server)
                .setTargetIp("127.0.0.1")
                .setPort(port)
                .setOutcome(outcome)
                .setLatencyMs(durationMs)
                .setStatusCode(code)
                .setState(state)
                .setReason(reason)
                .setCheck(check)
                .setRegisteredAt(starting ? Instant.ofEpochMilli(processStart) : null)
                .build();
    }
}
