package io.hcwatch.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code ./hcwatch bench live} on a small input: both apps consume every record in both rounds and
 * the figures it prints are measured ones (positive rates, alerts that arrived). Speed itself is
 * the benchmark's business, not this test's.
 */
class LiveBenchIT {

    @Test
    void bothAppsConsumeEverythingWithTwoInstancesEachAndTheFiguresArePrinted() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LiveBench.run(600_000, 2, 2, 2, 3, Map.of(), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
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
        assertThat(out).containsPattern("alert latency .*3 samples.*p50 \\d+ ms, p99 \\d+ ms");
    }
}
