package io.hcwatch.bench;

import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.Decoded;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.LogFormat;
import io.hcwatch.parse.ParseResult;
import java.time.Clock;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * HAProxy httplog lines (with syslog prefix) per second on one thread: the hand-written parser beside
 * a regex one, and beside the parser compiled from httplog's own log-format string (declared for
 * every frontend, as {@code haproxy.log-format=httplog} does), which must stay within 1.5× of it.
 */
public class HaproxyParseBenchmark extends OneThreadThroughput {

    private final HaproxyLogParser handWritten = new HaproxyLogParser();
    private final RegexHaproxyParser regex = new RegexHaproxyParser();
    private final HaproxyLogParser compiled = new HaproxyLogParser(LogDates.live(Clock.systemUTC()),
            DeclaredLogFormats.of(Map.of("*", LogFormat.HTTPLOG)));
    private LineCycle lines;

    @Setup(Level.Trial)
    public void load() {
        lines = new LineCycle(Corpus.haproxyHttpLines(4096, 42));
    }

    @Benchmark
    public ParseResult<Decoded> handWrittenTokenizer() {
        return handWritten.parse(lines.next());
    }

    @Benchmark
    public ParseResult<Decoded> compiledHttplogFormat() {
        return compiled.parse(lines.next());
    }

    @Benchmark
    public HaproxyRequest javaUtilRegex() {
        return regex.parse(lines.next());
    }
}
