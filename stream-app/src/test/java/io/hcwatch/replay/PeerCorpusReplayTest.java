package io.hcwatch.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.config.Settings;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.PeerFixtures;
import io.hcwatch.topology.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every peer HAProxy line (shared/fixtures/peer-logs/haproxy: attributed, unattributed and negative)
 * through the whole ingest and the monitors, as {@code replay} runs them: each is parsed, skipped or
 * rejected by its parser with a reason; none fails inside the ingest (processing_error) or its
 * decoder (internal_error).
 */
class PeerCorpusReplayTest {

    @Test
    void everyPeerLineIsTakenInOrRejectedByItsParserAndNoneFailsInTheIngest() {
        Path dir = PeerFixtures.requireFolder().resolve("haproxy");
        ReplayInputs inputs = new ReplayInputs();
        long lines = 0;
        for (String file : new String[] {"lines.txt", "unattributed-lines.txt", "negative-lines.txt"}) {
            inputs.add(Source.HAPROXY, dir.resolve(file));
            lines += PeerFixtures.lines(dir.resolve(file)).stream().filter(l -> !l.isBlank()).count();
        }
        List<DeadLetter> dead = new ArrayList<>();
        ReplaySummary summary = new ReplaySummary();
        new ReplayRun(inputs, Settings.defaults(), new LogDates(Clock.fixed(Instant.parse("2025-12-31T12:00:00Z"),
                ZoneOffset.UTC), null)).run(dead::add, summary);

        assertThat(summary.read(Source.HAPROXY, 0)).isEqualTo(lines);
        List<String> failed = dead.stream().filter(d -> d.getReason().equals("processing_error")
                        || d.getReason().equals("internal_error"))
                .map(d -> d.getReason() + ": " + d.getError() + " <- " + new String(d.getRaw().array(), StandardCharsets.UTF_8))
                .toList();
        assertThat(failed).as("lines the ingest failed on").isEmpty();
        // the parser's verdicts: the two negative lines are its only rejections, and nothing else was dead-lettered
        assertThat(summary.read(Source.HAPROXY, 2)).isEqualTo(2);
        assertThat(dead).extracting(DeadLetter::getReason).containsExactlyInAnyOrder("bad_timestamp", "not_haproxy");
        assertThat(summary.read(Source.HAPROXY, 1) + summary.read(Source.HAPROXY, 2) + summary.read(Source.HAPROXY, 3))
                .isEqualTo(lines);
    }
}
