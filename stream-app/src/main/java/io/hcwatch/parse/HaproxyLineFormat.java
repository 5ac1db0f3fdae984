package io.hcwatch.parse;

import io.hcwatch.avro.v1.BackendEvent;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Writes HAProxy log lines: traffic lines in the default http/tcp/error formats and the health
 * check, server state and no-server messages, each behind a syslog prefix
 * ({@code 2026-03-03T14:32:45.120+00:00 lb1 haproxy[4242]: ...}, the RFC 3339 form rsyslog writes
 * with high-precision timestamps, which keeps milliseconds and the year). {@link HaproxyLogParser}
 * reads every line back to an equal record.
 */
public final class HaproxyLineFormat {

    private final ZoneId zone;

    /** Dates in UTC, as the simulator writes them. */
    public HaproxyLineFormat() {
        this(ZoneOffset.UTC);
    }

    /** @param zone the HAProxy host's local zone, in which HAProxy writes its accept dates */
    public HaproxyLineFormat(ZoneId zone) {
        this.zone = zone;
    }

    /**
     * A traffic line; the prefix is written when the record has a host (then its process, default
     * {@code haproxy}) or a process. The prefix time is the accept date.
     */
    public String format(HaproxyRequest r) {
        StringBuilder out = new StringBuilder(256);
        if (r.getHost() != null || r.getProcess() != null) {
            prefix(out, r.getTs(), r.getHost(), r.getProcess() == null ? "haproxy" : r.getProcess(), r.getPid());
        }
        out.append(r.getClientIp() == null ? "-" : r.getClientIp()).append(':')
                .append(r.getClientPort() == null ? 0 : r.getClientPort()).append(" [");
        HaproxyAcceptDate.append(out, r.getTs(), zone);
        out.append("] ").append(r.getFrontend());
        switch (r.getFormat()) {
            case error -> out.append('/').append(r.getBind()).append(": ").append(r.getError() == null ? "" : r.getError());
            case tcp -> {
                out.append(r.getSsl() ? "~ " : " ").append(r.getBackend()).append('/').append(r.getServer()).append(' ');
                timers(out, r.getLogasap(), r.getTw(), r.getTc(), r.getTa());
                counters(out, r);
            }
            case http -> {
                out.append(r.getSsl() ? "~ " : " ").append(r.getBackend()).append('/').append(r.getServer()).append(' ');
                timers(out, r.getLogasap(), r.getTr(), r.getTw(), r.getTc(), r.getTrServer(), r.getTa());
                out.append(' ').append(r.getStatusCode() == null ? -1 : r.getStatusCode());
                counters(out, r);
                if (r.getCapturedRequestHeaders() != null) {
                    out.append(" {").append(r.getCapturedRequestHeaders()).append('}');
                    if (r.getCapturedResponseHeaders() != null) {
                        out.append(" {").append(r.getCapturedResponseHeaders()).append('}');
                    }
                }
                out.append(" \"");
                String sep = "";
                for (String part : new String[] {r.getHttpMethod(), r.getHttpUri(), r.getHttpVersion()}) {
                    if (part != null) {
                        out.append(sep).append(part);
                        sep = " ";
                    }
                }
                out.append('"');
            }
            default -> throw new IllegalArgumentException("unknown format " + r.getFormat());
        }
        return out.toString();
    }

    private void counters(StringBuilder out, HaproxyRequest r) {
        boolean http = r.getFormat() == io.hcwatch.avro.v1.HaproxyLogFormat.http;
        out.append(' ').append(r.getBytesLogasap() ? "+" : "").append(r.getBytesRead() == null ? 0 : r.getBytesRead());
        if (http) {
            out.append(' ').append(orDash(r.getCapturedRequestCookie()))
                    .append(' ').append(orDash(r.getCapturedResponseCookie()));
        }
        out.append(' ').append(r.getTerminationState() == null ? (http ? "----" : "--") : r.getTerminationState());
        out.append(' ').append(zero(r.getActconn())).append('/').append(zero(r.getFeconn())).append('/')
                .append(zero(r.getBeconn())).append('/').append(zero(r.getSrvConn())).append('/')
                .append(r.getRedispatched() ? "+" : "").append(zero(r.getRetries()));
        out.append(' ').append(zero(r.getSrvQueue())).append('/').append(zero(r.getBackendQueue()));
    }

    private static void timers(StringBuilder out, boolean logasap, Integer... timers) {
        for (int i = 0; i < timers.length; i++) {
            if (i > 0) {
                out.append('/');
            }
            if (i == timers.length - 1 && logasap) {
                out.append('+');
            }
            out.append(timers[i] == null ? -1 : timers[i]);
        }
    }

    /**
     * {@code Health check for server BE/SRV succeeded|failed, reason: R, code: N, check duration: Nms,
     * status: X/Y UP|DOWN|DRAIN.} Y comes from the record's check thresholds (fall while UP, rise
     * while DOWN, default 3 and 2 as in HAProxy); X is the server's progress towards the other state.
     *
     * @param progress X in {@code status: X/Y}
     */
    public String healthCheck(HealthCheckResult r, int progress) {
        String state = haproxyState(r.getState());
        boolean down = r.getState() == TargetState.unhealthy;
        Integer threshold = r.getCheck() == null ? null
                : down ? r.getCheck().getHealthyThreshold() : r.getCheck().getUnhealthyThreshold();
        StringBuilder out = new StringBuilder(200);
        prefix(out, r.getTs(), r.getLb(), "haproxy", null);
        out.append("Health check for server ").append(r.getTargetGroup()).append('/').append(r.getTarget())
                .append(r.getOutcome() == CheckOutcome.pass ? " succeeded" : " failed");
        details(out, r);
        out.append(", status: ").append(progress).append('/').append(threshold != null ? threshold : down ? 2 : 3)
                .append(' ').append(state).append('.');
        return out.toString();
    }

    /**
     * {@code Server BE/SRV is DOWN|UP, reason: R, check duration: Nms. N active and M backup servers
     * left|online. ...} for a healthy or unhealthy record; the active count is the record's
     * {@code active_servers_left} (0 when absent).
     */
    public String serverState(HealthCheckResult r, int backupServers) {
        boolean up = r.getState() == TargetState.healthy;
        if (!up && r.getState() != TargetState.unhealthy) {
            throw new IllegalArgumentException("a server state line says UP or DOWN, not " + r.getState());
        }
        StringBuilder out = new StringBuilder(200);
        prefix(out, r.getTs(), r.getLb(), "haproxy", null);
        out.append("Server ").append(r.getTargetGroup()).append('/').append(r.getTarget())
                .append(up ? " is UP" : " is DOWN");
        details(out, r);
        int active = r.getActiveServersLeft() == null ? 0 : r.getActiveServersLeft();
        out.append(". ").append(active).append(" active and ").append(backupServers).append(" backup servers ");
        out.append(up ? "online. 0 sessions requeued, 0 total in queue."
                : "left. 0 sessions active, 0 requeued, 0 remaining in queue.");
        return out.toString();
    }

    /** {@code backend BE has no server available!} */
    public String noServerAvailable(BackendEvent e) {
        StringBuilder out = new StringBuilder(120);
        prefix(out, e.getTs(), e.getHost(), "haproxy", null);
        return out.append("backend ").append(e.getBackend()).append(" has no server available!").toString();
    }

    private static void details(StringBuilder out, HealthCheckResult r) {
        if (r.getReason() != null) {
            out.append(", reason: ").append(r.getReason());
        }
        if (r.getStatusCode() != null) {
            out.append(", code: ").append(r.getStatusCode());
        }
        if (r.getLatencyMs() != null) {
            out.append(", check duration: ").append(r.getLatencyMs()).append("ms");
        }
    }

    private static String haproxyState(TargetState state) {
        if (state == null) {
            throw new IllegalArgumentException("a health check line needs the server's state (UP, DOWN or DRAIN)");
        }
        return switch (state) {
            case healthy -> "UP";
            case unhealthy -> "DOWN";
            case draining -> "DRAIN";
            default -> throw new IllegalArgumentException("HAProxy has no check status for state " + state);
        };
    }

    private void prefix(StringBuilder out, Instant ts, String host, String program, Integer pid) {
        LocalDateTime t = LocalDateTime.ofInstant(ts, zone);
        ZoneOffset offset = zone.getRules().getOffset(ts);
        IsoInstants.appendPadded(out, t.getYear(), 4).append('-');
        IsoInstants.appendPadded(out, t.getMonthValue(), 2).append('-');
        IsoInstants.appendPadded(out, t.getDayOfMonth(), 2).append('T');
        IsoInstants.appendPadded(out, t.getHour(), 2).append(':');
        IsoInstants.appendPadded(out, t.getMinute(), 2).append(':');
        IsoInstants.appendPadded(out, t.getSecond(), 2).append('.');
        IsoInstants.appendPadded(out, t.getNano() / 1_000_000, 3);
        out.append(offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId()).append(' ');
        if (host != null) {
            out.append(host).append(' ');
        }
        out.append(program);
        if (pid != null) {
            out.append('[').append(pid).append(']');
        }
        out.append(": ");
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }

    private static int zero(Integer v) {
        return v == null ? 0 : v;
    }
}
