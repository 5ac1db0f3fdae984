package io.hcwatch.parse;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;

/**
 * Writes a {@link HealthCheckResult} as an ALB health-check log entry
 * ({@code type time latency target_addr target_group_id status status_code reason_code}) that
 * {@link AlbHealthCheckLogParser} reads back to an equal record. The status field carries the
 * target state when the record has one, else {@code pass}/{@code fail}; latency is written in
 * seconds with millisecond precision like the other ELB logs.
 */
public final class AlbHealthCheckLogFormat {

    private AlbHealthCheckLogFormat() {
    }

    public static String format(HealthCheckResult r) {
        return format(r, "http");
    }

    /** @param type the health-check protocol written in the first field, e.g. http or https */
    public static String format(HealthCheckResult r, String type) {
        StringBuilder out = new StringBuilder(160);
        out.append(type).append(' ');
        IsoInstants.appendMicros(out, r.getTs());
        out.append(' ');
        if (r.getLatencyMs() == null) {
            out.append('-');
        } else {
            AlbLogFormat.seconds(out, r.getLatencyMs() / 1000.0);
        }
        out.append(' ');
        if (r.getTargetIp() != null && r.getPort() != null) {
            out.append(HostPort.format(r.getTargetIp(), r.getPort()));
        } else {
            out.append(r.getTarget());
        }
        out.append(' ').append(r.getTargetGroup()).append(' ');
        if (r.getState() != null) {
            out.append(r.getState().name());
        } else {
            out.append(r.getOutcome() == CheckOutcome.pass ? "pass" : "fail");
        }
        out.append(' ').append(r.getStatusCode() == null ? "-" : r.getStatusCode().toString());
        out.append(' ').append(r.getReason() == null ? "-" : r.getReason());
        return out.toString();
    }
}
