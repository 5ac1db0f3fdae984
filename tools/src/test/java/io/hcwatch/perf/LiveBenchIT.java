package io.hcwatch.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A smoke test of {@code ./hcwatch bench live}: the command runs to its end on a small input and
 * prints its report. How fast either app goes is the benchmark's business (README, Benchmarks), run
 * by the command itself, not here: on a shared CI machine a figure asserted would be noise.
 *
 * <p>The input is small, so the apps commit every 100 ms: the bench times from an app's first commit
 * on, and at the app's default interval a first commit can hold the whole input (on an idle machine
 * even at 100 ms the two-thread pass-through did: the bench then times that app from its launch and
 * says so, CI of 9dd035d).
 */
class LiveBenchIT {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private PrintStream stdout;

    @BeforeEach
    void capture() {
        stdout = System.out;
        // the command prints to standard output; the report still reaches the test's log
        System.setOut(new PrintStream(new Tee(stdout, printed), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void release() {
        System.setOut(stdout);
    }

    /**
     * One run of the README's form (both thread counts) with one alert-latency sample: every stage
     * of the command (production, warm-ups, a measured run of each app at each thread count, the
     * comparison, the latency probe) runs once, on one broker.
     */
    @Test
    void bothAppsAtBothThreadCountsAndAnAlertLatencySampleArePrinted() {
        int exit = Main.execute("bench", "live", "--records", "60000", "--rounds", "1", "--latency-samples", "1",
                "--threads", "1,2", "--streams-config", "commit.interval.ms=100",
                // seven app starts would each wait 3 s for a group's members: nothing here is measured
                "--broker-config", "group.initial.rebalance.delay.ms=0");

        String out = printed.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(out).isZero();
        for (String app : new String[] {"pass-through-1t-1", "hcwatch-1t-1", "pass-through-2t-1", "hcwatch-2t-1"}) {
            assertThat(out).containsPattern(Pattern.compile(app + " +[\\d,]+ records in .* [\\d,]+ records/s"));
        }
        assertThat(out).contains("1 stream thread(s), median of 1 rounds", "2 stream thread(s), median of 1 rounds",
                "2 threads against 1");
        assertThat(out).containsPattern("alert latency \\(.* samples .*\\): p50 \\d+ ms");
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws java.io.IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
