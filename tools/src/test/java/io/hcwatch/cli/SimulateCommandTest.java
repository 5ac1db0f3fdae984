package io.hcwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.replay.ReplayInputs;
import io.hcwatch.replay.ReplayRun;
import io.hcwatch.replay.ReplaySummary;
import io.hcwatch.simulate.Scenario;
import io.hcwatch.simulate.ScenarioReplay;
import io.hcwatch.simulate.TelemetryFiles;
import io.hcwatch.topology.Source;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    @TempDir
    Path dir;

    @Test
    void filesWrittenForReplayGiveTheAlertsOfTheInProcessRun() {
        int code = Main.execute("simulate", "--scenario", "zonal-gray-failure", "--duration", "4m", "--onset", "90s",
                "--alb-rate", "20", "--out", dir.toString(), "--gzip");
        assertThat(code).isZero();
        ReplayInputs inputs = new ReplayInputs();
        for (Source s : Source.values()) {
            if (s == Source.HAPROXY_STATS) {
                continue; // the simulator plays no collector
            }
            Path file = dir.resolve(TelemetryFiles.fileName(s, true));
            assertThat(file).exists();
            inputs.add(s, file);
        }
        List<Alert> fromFiles = new ReplayRun(inputs, Settings.defaults(), Clock.systemUTC()).run(d -> { }, new ReplaySummary());
        List<Alert> inProcess = ScenarioReplay.run(Scenario.ZONAL_GRAY_FAILURE, Scenario.ZONAL_GRAY_FAILURE.defaults()
                .withTiming(Duration.ofMinutes(4), Duration.ofSeconds(90)).withAlbRequestsPerSecond(20), Settings.defaults(),
                t -> { }).alerts();
        assertThat(fromFiles).extracting(Alert::getDedupKey).contains("zonal_failure/prod-web-tg/us-east-1b");
        assertThat(fromFiles).extracting(a -> a.getDedupKey() + "@" + a.getEventTime() + "/" + a.getStatus())
                .containsExactlyElementsOf(inProcess.stream().map(a -> a.getDedupKey() + "@" + a.getEventTime() + "/" + a.getStatus()).toList());
    }

    /**
     * Replay decodes a file whose lines decode alone in blocks ahead of the merge (HAProxy's too when
     * no lb-config is replayed beside it); what it finds and dead-letters is what decoding one line at
     * a time, as it used to, finds. Unparseable lines sit at a block's edges, where a block would lose
     * their place in the file's time order if it got it wrong.
     */
    @Test
    void decodingAheadInBlocksFindsAndDeadLettersWhatOneLineAtATimeDoes() throws Exception {
        int code = Main.execute("simulate", "--scenario", "ping-flood", "--duration", "5m", "--onset", "90s",
                "--out", dir.toString());
        assertThat(code).isZero();
        Path haproxy = dir.resolve(TelemetryFiles.fileName(Source.HAPROXY, false));
        List<String> lines = new ArrayList<>(Files.readAllLines(haproxy));
        for (int at : new int[] {1_000, 513, 512, 256, 255, 0}) {
            lines.add(at, "not a log line " + at);
        }
        Files.write(haproxy, lines);
        ReplayInputs inputs = new ReplayInputs();
        for (Source s : List.of(Source.ALB, Source.ALB_HEALTH, Source.HEALTH, Source.HAPROXY)) {
            inputs.add(s, dir.resolve(TelemetryFiles.fileName(s, false)));
        }
        List<String> aheadDead = new ArrayList<>();
        List<String> oneDead = new ArrayList<>();
        List<Alert> ahead = new ReplayRun(inputs, Settings.defaults(), Clock.systemUTC())
                .run(d -> aheadDead.add(deadLetter(d)), new ReplaySummary());
        List<Alert> one = new ReplayRun(inputs, Settings.defaults(), Clock.systemUTC()).decodeAhead(1)
                .run(d -> oneDead.add(deadLetter(d)), new ReplaySummary());
        assertThat(ahead).extracting(a -> a.getType().toString()).contains("client_flood");
        assertThat(aheadDead).hasSizeGreaterThanOrEqualTo(6).containsExactlyElementsOf(oneDead);
        assertThat(ahead).extracting(SimulateCommandTest::described)
                .containsExactlyElementsOf(one.stream().map(SimulateCommandTest::described).toList());
    }

    private static String described(Alert a) {
        return a.getDedupKey() + "@" + a.getEventTime() + "/" + a.getStatus() + " " + a.getDetails();
    }

    private static String deadLetter(DeadLetter d) {
        return d.getReason() + " " + d.getOffset() + " " + d.getInputTimestamp() + " " + d.getError();
    }

    @Test
    void listDescribesEveryScenario() {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.execute("simulate", "--list")).isZero();
        } finally {
            System.setOut(saved);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        for (Scenario s : Scenario.values()) {
            assertThat(text).contains(s.id()).contains(s.realWorld());
        }
        assertThat(text).contains("alias timeout-cascade");
    }

    @Test
    void refusesAnUnknownScenarioOrNoDestinationWithExitTwo() throws Exception {
        assertThat(Main.execute("simulate", "--scenario", "meteor-strike", "--replay")).isEqualTo(2);
        assertThat(Main.execute("simulate", "--scenario", "fail-open")).isEqualTo(2);
        assertThat(Main.execute("simulate", "--scenario", "fail-open", "--replay", "--out", dir.toString())).isEqualTo(2);
        assertThat(Main.execute("simulate", "--scenario", "fail-open", "--replay", "--onset", "20m", "--duration", "10m"))
                .isEqualTo(2);
        assertThat(Files.list(dir)).isEmpty();
    }
}
