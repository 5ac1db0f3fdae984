package io.hcwatch.collect.haproxy;

/**
 * The process-wide figures of one HAProxy worker. {@code null}: the source did not give it (the
 * stats page has no run queue or session rate).
 */
record ProcessInfo(int pid, long uptimeSec, int maxconn, int currConns, Integer connRate, Integer sessRate,
                   Integer runQueue, Integer idlePct) {
}
