package io.hcwatch.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./hcwatch bench live} on a small input: both apps consume every record in both rounds and
 * the figures it prints are measured ones (positive rates, alerts that arrived). Speed itself is
 * the benchmark's business, not this test's. The inputs are sized for that: an app's first commit
 * can already hold more than half a million records (Kafka Streams processes several polls before
 * its first commit check), and the bench times from the first commit on.
 */
class LiveBenchIT {

    @Test
    void bothAppsConsumeEverythingWithTwoInstancesEachAndTheFiguresArePrinted() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveBench.run(2_000_000, 2, 2, 2, 3, Map.of(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(out);
        assertThat(out).contains("2 instance(s) of each app");

        for (String app : new String[] {"pass-through-1", "hcwatch-bench-1", "pass-through-2", "hcwatch-bench-2"}) {
            assertThat(out).containsPattern(Pattern.compile(app + " +[\\d,]+ records in .* [\\d,]+ records/s"));
        }
        Matcher overall = Pattern.compile("hcwatch ([\\d,]+) records/s; pass-through ([\\d,]+) records/s; ratio (\\d+\\.\\d+)")
                .matcher(out.substring(out.indexOf("median of 2 rounds")));
        assertThat(overall.find()).as(out).isTrue();
        assertThat(Double.parseDouble(overall.group(1).replace(",", ""))).isPositive();
        assertThat(Double.parseDouble(overall.group(2).replace(",", ""))).isPositive();
        assertThat(out).containsPattern("CPU per record .*: hcwatch \\d+\\.\\d+ us; pass-through \\d+\\.\\d+ us");
        // the broker's own count of what each app wrote beside its output: the pass-through has no internal topics,
        // hcwatch at least its fleet repartition topic and the monitors' clocks
        assertThat(out).containsPattern("hcwatch-bench-1 .*\\n +records its internal topics took per 1,000 input records: .*"
                + "fleet-repartition (?!0\\.0)\\d+\\.\\d.*fleet-state-clock-changelog \\d+\\.\\d");
        assertThat(out).containsPattern("pass-through-1 .*\\n +records its internal topics took per 1,000 input records: none");
        assertThat(out).containsPattern("alert latency .*3 samples.*p50 \\d+ ms, p99 \\d+ ms");
    }

    @Test
    void threadCountsAreComparedInTheSameRoundsWithoutALatencyRun() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveBench.run(3_000_000, 2, 1, 1, 0, Map.of(), false, List.of(1, 2), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(out);

        for (String run : new String[] {"pass-through-1t-1", "hcwatch-1t-1", "pass-through-2t-1", "hcwatch-2t-1"}) {
            assertThat(out).containsPattern(Pattern.compile(run + " +[\\d,]+ records in .* [\\d,]+ records/s"));
        }
        for (int threads : new int[] {1, 2}) {
            Matcher m = Pattern.compile(threads + " stream thread\\(s\\), median of 1 rounds: hcwatch ([\\d,]+) records/s;"
                    + " pass-through ([\\d,]+) records/s; ratio (\\d+\\.\\d+)").matcher(out);
            assertThat(m.find()).as(out).isTrue();
            assertThat(Double.parseDouble(m.group(1).replace(",", ""))).isPositive();
            assertThat(Double.parseDouble(m.group(2).replace(",", ""))).isPositive();
        }
        assertThat(out).containsPattern("2 threads against 1: hcwatch \\d+\\.\\d+x, pass-through \\d+\\.\\d+x"
                + " \\(median of the per-round ratios; rounds \\[\\d+\\.\\d+\\] / \\[\\d+\\.\\d+\\]\\)");
        assertThat(out).doesNotContain("alert latency");
    }
}
