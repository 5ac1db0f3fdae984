package io.hcwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.LogDates;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.topology.Source;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code replay --year/--zone}: old HAProxy files read in the year and zone their hosts wrote them in. */
class ReplayDatesTest {

    @TempDir
    Path dir;

    @Test
    void yearAndZoneTimeALineWhosePrefixHasNeither() throws IOException {
        // RFC 3164: no year, no zone; written on a host in Berlin (UTC+1 in March) in 2024
        Path log = write("haproxy.log", "Mar  3 14:34:01 lb1 haproxy[4242]: backend app has no server available!");
        ReplayInputs inputs = new ReplayInputs();
        inputs.add(Source.HAPROXY, log);
        // wall clock far from the replayed period: only the flags can place the line
        Clock wall = Clock.fixed(Instant.parse("2031-07-01T00:00:00Z"), ZoneId.of("Europe/Berlin"));
        List<Alert> alerts = new ReplayRun(inputs, Settings.defaults(), new LogDates(wall, 2024))
                .run(d -> { }, new ReplaySummary());
        assertThat(alerts).first().satisfies(a -> {
            assertThat(a.getType()).isEqualTo("no_healthy_targets");
            assertThat(a.getEventTime()).isEqualTo(Instant.parse("2024-03-03T13:34:01Z"));
        });
    }

    @Test
    void aDateThatDoesNotExistInTheGivenYearIsADeadLetterSayingSo() throws IOException {
        Path log = write("haproxy.log",
                "Feb 29 10:00:00 lb1 haproxy[1]: backend app has no server available!",
                "Mar  1 10:00:00 lb1 haproxy[1]: backend app has no server available!");
        Path dlq = dir.resolve("dlq.jsonl");
        StringWriter err = new StringWriter();
        int code = execute(err, "replay", "--haproxy", log.toString(), "--year", "2023", "--zone", "+01:00",
                "--dlq", dlq.toString());
        assertThat(code).as(err.toString()).isZero();
        List<String> dead = Files.readAllLines(dlq, StandardCharsets.UTF_8);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0)).contains("\"line\":1").contains("bad_timestamp").contains("a date that exists in 2023");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "--year, 24, --year: '24' is not a year",
        "--year, 2O24, --year: '2O24' is not a year",
        "--year, -2024, --year: '-2024' is not a year",
        "--zone, Mars/Olympus, --zone: 'Mars/Olympus' is not a zone",
        "--zone, +25:00, --zone: '+25:00' is not a zone",
        "--log-format, www=%ci %Xy %ft, --log-format www: log-format '%ci %Xy %ft' at character 5: %Xy is not an HAProxy log-format alias",
    })
    void aBadValueExitsTwoWithOneLine(String flag, String value, String says) throws IOException {
        Path log = write("haproxy.log", "Mar  3 14:34:01 lb1 haproxy[4242]: backend app has no server available!");
        StringWriter err = new StringWriter();
        int code = execute(err, "replay", "--haproxy", log.toString(), flag, value);
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines().toList()).singleElement().asString().startsWith("hcwatch: " + says);
    }

    @Test
    void aFlagWithoutItsValueExitsTwoWithOneLine() throws IOException {
        Path log = write("haproxy.log", "Mar  3 14:34:01 lb1 haproxy[4242]: backend app has no server available!");
        StringWriter err = new StringWriter();
        assertThat(execute(err, "replay", "--haproxy", log.toString(), "--zone")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).singleElement().asString().contains("--zone");
    }

    private Path write(String name, String... lines) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    private static int execute(StringWriter err, String... args) {
        CommandLine cli = Cli.commandLine(new StreamAppMain());
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        return cli.execute(all.toArray(String[]::new));
    }
}
