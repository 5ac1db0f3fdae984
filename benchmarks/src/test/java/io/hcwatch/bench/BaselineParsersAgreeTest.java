package io.hcwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.HaproxyLine;
import io.hcwatch.parse.AlbAccessLogParser;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.LogFormat;
import io.hcwatch.parse.ParseResult;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks compare like with like only if both parsers produce the same records from the
 * same corpus. Runs in milliseconds; the benchmarks themselves only run from benchmarks.jar.
 */
class BaselineParsersAgreeTest {

    @Test
    void regexAndHandWrittenAlbParsersProduceEqualRecords() {
        AlbAccessLogParser handWritten = new AlbAccessLogParser();
        RegexAlbParser regex = new RegexAlbParser();
        for (String line : Corpus.albLines(500, 42)) {
            assertThat(handWritten.parse(line)).as(line).isEqualTo(ParseResult.ok(regex.parse(line)));
        }
    }

    @Test
    void regexAndHandWrittenHaproxyParsersProduceEqualRecords() {
        HaproxyLogParser handWritten = new HaproxyLogParser();
        RegexHaproxyParser regex = new RegexHaproxyParser();
        for (String line : Corpus.haproxyHttpLines(500, 42)) {
            assertThat(handWritten.parse(line)).as(line).isEqualTo(ParseResult.ok(new HaproxyLine(regex.parse(line))));
        }
    }

    @Test
    void theCompiledHttplogFormatAndTheHandWrittenParserProduceEqualRecords() {
        HaproxyLogParser handWritten = new HaproxyLogParser();
        HaproxyLogParser compiled = new HaproxyLogParser(LogDates.live(Clock.systemUTC()),
                DeclaredLogFormats.of(Map.of("*", LogFormat.HTTPLOG)));
        for (String line : Corpus.haproxyHttpLines(500, 42)) {
            assertThat(compiled.parse(line)).as(line).isEqualTo(handWritten.parse(line)).isInstanceOf(ParseResult.Ok.class);
        }
    }
}
