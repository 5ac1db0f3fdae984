package io.hcwatch.detect.fleet;

import static io.hcwatch.detect.fleet.Checks.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.detect.Finding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * correlated_failure's diagnosis on an HAProxy backend fed only by {@code collect haproxy}: servers
 * s1-s3 checked every 500 ms under {@code timeout check 2s} (HaproxyChecksAndHoldersIT's
 * haproxy.cfg), their records shaped as {@link HaproxyBackend} says. HAProxy starts at T0 with s1
 * listening and s2, s3 refusing connections (0 ms, state initial) for 3 s; once all pass, /health
 * answers in 20 ms for a while, creeps for 30 s to a top latency, and then hangs: every check
 * times out at 2000 ms. The collector polls every second; evaluation steps every 10 s.
 */
class CorrelatedFailureOnHaproxyTest {

    private static final String BACKEND = "be_app";
    private static final int TIMEOUT = 2000;
    private static final int INTER = 500;
    private static final List<String> SERVERS = List.of("s1", "s2", "s3");

    private final CorrelatedFailureDetector detector = new CorrelatedFailureDetector(Fleet.SETTINGS, Fleet.DIAGNOSTICIAN);
    private final HaproxyBackend haproxy = new HaproxyBackend(BACKEND, TIMEOUT, INTER, T0);
    private final List<HealthCheckResult> published = new ArrayList<>();

    @ParameterizedTest(name = "20 ms for {0}s, creep to {1} ms, {2}, then every check times out -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # steady s | creep top ms | also                          | diagnosis                    | reason starts with
            10         | 1900         | nothing else                  | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout
            600        | 1900         | nothing else                  | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout
            10         | 1900         | s4 never comes up             | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout
            10         | 1900         | a reload just before the hang | timeout_below_latency        | checks time out while even passing checks take close to the 2000ms timeout
            10         | 1300         | nothing else                  | shared_dependency_deep_check | sudden, identical failures (Layer7 timeout)
            600        | 1300         | nothing else                  | shared_dependency_deep_check | sudden, identical failures (Layer7 timeout)
            """)
    void everyServerTimingOutAtTheTimeoutIsDiagnosedByItsPassingLatencyNotByStartUpRefusals(int steadySeconds, int creepTopMs,
                                                                                              String also, String diagnosis,
                                                                                              String reason) {
        boolean neverUp = also.equals("s4 never comes up");
        long hangFrom = creep(startUp(neverUp) + steadySeconds * 1000L, creepTopMs, neverUp);
        hang(hangFrom, also.equals("a reload just before the hang"), neverUp);

        Finding finding = firstFinding(hangFrom + 60_000);

        assertThat(finding).as("correlated_failure within a minute of the hang").isNotNull();
        assertThat(finding.details()).containsEntry("failing", "3").containsEntry("diagnosis", diagnosis);
        assertThat(finding.details().get("diagnosis_reason")).startsWith(reason);
        assertThat(Integer.parseInt(finding.details().get("failing_check_p50_ms")))
                .as("every failed check took the 2000 ms timeout (the histogram keeps two significant digits)")
                .isBetween(2000, 2020);
    }

    /**
     * s1 passes from the first poll; s2 and s3 refuse until T0+3s, pass while still DOWN (not yet
     * passed while UP: starting), and are UP from T0+5s; s4, when it never comes up, refuses
     * throughout. Returns when s1-s3 are all UP.
     */
    private long startUp(boolean neverUp) {
        for (long at = T0 + 1000; at <= T0 + 3000; at += 1000) {
            published.add(haproxy.server("s1", 8001, at, "L7OK", at == T0 + 1000 ? 1 : 20, TargetState.healthy));
            published.add(haproxy.starting("s2", 8002, at, "L4CON", 0));
            published.add(haproxy.starting("s3", 8003, at, "L4CON", 0));
        }
        published.add(haproxy.server("s1", 8001, T0 + 4000, "L7OK", 20, TargetState.healthy));
        published.add(haproxy.starting("s2", 8002, T0 + 4000, "L7OK", 20));
        published.add(haproxy.starting("s3", 8003, T0 + 4000, "L7OK", 20));
        if (neverUp) {
            refusals(T0 + 1000, T0 + 5000);
        }
        return T0 + 5000;
    }

    /** Passes in 20 ms from T0+5s until {@code from}, then 30 s rising to {@code topMs}; returns when checks start to hang. */
    private long creep(long from, int topMs, boolean neverUp) {
        for (long at = T0 + 5000; at < from; at += 1000) {
            passes(at, 20);
        }
        for (int s = 0; s < 30; s++) {
            passes(from + s * 1000L, 20 + (s + 1) * (topMs - 20) / 30);
        }
        long hangFrom = from + 30_000;
        if (neverUp) {
            refusals(T0 + 5000, hangFrom);
        }
        return hangFrom;
    }

    private void passes(long at, int latencyMs) {
        for (int i = 0; i < SERVERS.size(); i++) {
            published.add(haproxy.server(SERVERS.get(i), 8001 + i, at, "L7OK", latencyMs, TargetState.healthy));
        }
    }

    /** s4 refuses every poll in [from, to), never having passed: starting since T0. */
    private void refusals(long from, long to) {
        for (long at = from; at < to; at += 1000) {
            published.add(haproxy.starting("s4", 8004, at, "L4CON", 0));
        }
    }

    /**
     * Every check from {@code from} hangs until the 2 s timeout: UP 1/3, UP 2/3 (still healthy),
     * DOWN from the third (fall 3), each 2000 ms plus inter after the one before. After a reload,
     * HAProxy's new process starts every server again: not yet checked, then starting until it passes.
     */
    private void hang(long from, boolean reloaded, boolean neverUp) {
        HaproxyBackend process = reloaded ? new HaproxyBackend(BACKEND, TIMEOUT, INTER, from - 500) : haproxy;
        if (reloaded) {
            for (int i = 0; i < SERVERS.size(); i++) {
                published.add(process.starting(SERVERS.get(i), 8001 + i, from, "INI", null));
            }
        }
        long at = from;
        for (int failure = 1; failure <= 8; failure++) {
            at += TIMEOUT;
            for (int i = 0; i < SERVERS.size(); i++) {
                published.add(reloaded ? process.starting(SERVERS.get(i), 8001 + i, at, "L7TOUT", TIMEOUT)
                        : haproxy.server(SERVERS.get(i), 8001 + i, at, "L7TOUT", TIMEOUT,
                                failure < 3 ? TargetState.healthy : TargetState.unhealthy));
            }
            at += INTER;
        }
        if (neverUp) {
            refusals(from, at);
        }
    }

    /** Takes in every published record in event-time order, with evaluation steps between; the first finding up to {@code until}. */
    private Finding firstFinding(long until) {
        published.sort(Comparator.comparing(HealthCheckResult::getTs));
        Fleet fleet = Fleet.haproxy(BACKEND);
        long step = Fleet.SETTINGS.stepMillis();
        int next = 0;
        for (long at = T0; at <= until; at += step) {
            while (next < published.size() && published.get(next).getTs().toEpochMilli() <= at) {
                fleet.apply(published.get(next++));
            }
            fleet.steps(at, at);
            List<Finding> findings = fleet.judge(detector, at);
            if (!findings.isEmpty()) {
                return findings.get(0);
            }
        }
        return null;
    }
}
