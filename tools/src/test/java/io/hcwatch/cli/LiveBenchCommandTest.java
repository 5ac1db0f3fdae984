package io.hcwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Bad flags of {@code bench live} end before a broker is started: exit 2 and one line saying why. */
class LiveBenchCommandTest {

    @Test
    void negativeLatencySamplesExitTwoWithTheReason() {
        assertThat(run("bench", "live", "--latency-samples", "-1")).isEqualTo("2: --latency-samples must be 0 (no latency run) or more");
    }

    @Test
    void zeroRoundsExitTwoWithTheReason() {
        assertThat(run("bench", "live", "--rounds", "0")).startsWith("2: --records, --rounds, --partitions and --instances");
    }

    @Test
    void repeatedOrZeroThreadCountsExitTwoWithTheReason() {
        assertThat(run("bench", "live", "--threads", "1,1")).isEqualTo("2: --threads takes distinct thread counts of at least 1, e.g. 1,2");
        assertThat(run("bench", "live", "--threads", "0,2")).isEqualTo("2: --threads takes distinct thread counts of at least 1, e.g. 1,2");
    }

    @Test
    void threadsWithHaproxyStatsExitTwoWithTheReason() {
        assertThat(run("bench", "live", "--threads", "1,2", "--haproxy-stats")).startsWith("2: --threads and --haproxy-stats cannot be combined");
    }

    /** The exit code and the last line written to standard error. */
    private static String run(String... args) {
        StringWriter err = new StringWriter();
        int code = Main.commandLine().setErr(new PrintWriter(err, true)).execute(args);
        String[] lines = err.toString().strip().split("\n");
        return code + ": " + lines[lines.length - 1].replaceFirst("^hcwatch[^:]*: ", "");
    }
}
