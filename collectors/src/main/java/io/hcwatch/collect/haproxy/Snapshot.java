package io.hcwatch.collect.haproxy;

import java.util.List;

/** One poll of one host: the process, and its frontends, backends and servers in show stat order. */
record Snapshot(ProcessInfo process, List<Frontend> frontends, List<Backend> backends, List<Server> servers) {

    /** Cumulative counters are null when this HAProxy does not report them. */
    record Frontend(String name, String status, int scur, Integer slim, int smax, Integer qcur, int rate, Integer reqRate,
                    Integer connRate, long stot, long ereq, long dreq, Long dcon) {
    }

    record Backend(String name, String status, int scur, Integer qcur, Integer act, Integer bck, long stot, Long econ,
                   Long eresp) {
    }

    /**
     * @param checkStatus without the "* " HAProxy puts before it while a check is running
     * @param checkRunning whether that "* " was there: a check was under way at the poll
     * @param lastChangeSec seconds since the server's last UP/DOWN change
     * @param checkFailures chkfail, the failed checks since HAProxy started
     * @param checkHealth check_health, the counter rise and fall count against
     */
    record Server(String backend, String name, String status, String checkStatus, Integer checkCode,
                  Integer checkDurationMs, Long lastChangeSec, String checkDescription, String address, Integer rise,
                  Integer fall, boolean checkRunning, Long checkFailures, Integer checkHealth) {
    }
}
