package io.hcwatch.collect.haproxy.cfg;

/**
 * How HAProxy checks one server, from its {@code server} line, the {@code default-server} lines
 * before it and its proxy's {@code timeout} and {@code option httpchk}, with HAProxy's defaults
 * for what none of them set (inter 2s, fastinter and downinter = inter, rise 2, fall 3).
 *
 * @param checkTimeoutMs {@code timeout check}, null when not set
 * @param connectTimeoutMs {@code timeout connect}, null when not set
 * @param httpPath the URI of {@code option httpchk} (or {@code http-check send uri}); null for non-HTTP checks
 */
public record ServerCheckConfig(boolean checked, int interMs, int fastInterMs, int downInterMs, int rise, int fall,
                           Integer checkTimeoutMs, Integer connectTimeoutMs, String httpPath) {

    /**
     * How long a check may take before HAProxy calls it timed out: {@code timeout check} (a read
     * timeout after the connect, which on a healthy network is most of the check) when set, else
     * {@code inter} for the whole check, as the HAProxy manual describes {@code timeout check}.
     */
    public int timeoutMs() {
        return checkTimeoutMs != null ? checkTimeoutMs : interMs;
    }

    /** The connect part's limit: min(timeout connect, inter) with {@code timeout check} set, else inter. */
    public int connectLimitMs() {
        if (checkTimeoutMs != null && connectTimeoutMs != null) {
            return Math.min(connectTimeoutMs, interMs);
        }
        return interMs;
    }
}
