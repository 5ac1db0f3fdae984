package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.haproxy.cfg.ServerCheckConfig;
import java.util.Objects;

/**
 * What one server's check columns showed at a poll, and whether a check completed since the one
 * before. HAProxy's stats count no checks, so a completed check shows as a change of what a check
 * leaves behind (status, code, duration, chkfail, check_health), as a check that was running at the
 * previous poll and no longer is, or, when the configuration gives the server's interval, as the
 * time for the next check (interval plus the last check's duration) having passed: HAProxy checks
 * every {@code inter}, {@code fastinter} while a server is going up or down and {@code downinter}
 * while it is down.
 */
record ServerProgress(String checkStatus, Integer checkCode, Integer durationMs, Long failures, Integer health,
                      boolean running) {

    static ServerProgress of(Snapshot.Server s) {
        return new ServerProgress(s.checkStatus(), s.checkCode(), s.checkDurationMs(), s.checkFailures(), s.checkHealth(),
                s.checkRunning());
    }

    /**
     * @param sincePublishedMs time since this server's last published check
     * @param config the server's configured checks, or null when unknown
     */
    boolean completedAfter(ServerProgress before, long sincePublishedMs, String status, ServerCheckConfig config) {
        if (before == null) {
            return true;
        }
        if (!Objects.equals(checkStatus, before.checkStatus) || !Objects.equals(checkCode, before.checkCode)
                || !Objects.equals(durationMs, before.durationMs) || !Objects.equals(failures, before.failures)
                || !Objects.equals(health, before.health)) {
            return true;
        }
        if (before.running && !running) {
            return true;
        }
        return config != null && sincePublishedMs >= interval(status, config) + (durationMs == null ? 0 : durationMs);
    }

    /** The interval HAProxy waits before a server's next check in this status ("UP", "UP 1/3", "DOWN", "DOWN 1/2", ...). */
    static long interval(String status, ServerCheckConfig c) {
        if (status != null && status.indexOf('/') > 0) {
            return c.fastInterMs();
        }
        if (status != null && status.startsWith("DOWN")) {
            return c.downInterMs();
        }
        return c.interMs();
    }
}
