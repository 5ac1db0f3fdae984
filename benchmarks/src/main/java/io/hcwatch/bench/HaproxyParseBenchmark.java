package io.hcwatch.bench;

import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.Decoded;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.LogFormat;
import io.hcwatch.parse.ParseResult;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * HAProxy httplog lines (with syslog prefix) per second on one thread: the hand-written parser beside
 * a regex one, and beside the parser compiled from httplog's own log-format string (declared for
 * every frontend, as {@code haproxy.log-format=httplog} does), which must stay within 1.5× of it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HaproxyParseBenchmark {

    private final HaproxyLogParser handWritten = new HaproxyLogParser();
    private final RegexHaproxyParser regex = new RegexHaproxyParser();
    private final HaproxyLogParser compiled = new HaproxyLogParser(LogDates.live(Clock.systemUTC()),
            DeclaredLogFormats.of(Map.of("*", LogFormat.HTTPLOG)));
    private String[] lines;
    private int next;

    @Setup(Level.Trial)
    public void load() {
        List<String> corpus = Corpus.haproxyHttpLines(4096, 42);
        lines = corpus.toArray(new String[0]);
    }

    private String nextLine() {
        String line = lines[next];
        next = (next + 1) & (lines.length - 1);
        return line;
    }

    @Benchmark
    public ParseResult<Decoded> handWrittenTokenizer() {
        return handWritten.parse(nextLine());
    }

    @Benchmark
    public ParseResult<Decoded> compiledHttplogFormat() {
        return compiled.parse(nextLine());
    }

    @Benchmark
    public HaproxyRequest javaUtilRegex() {
        return regex.parse(nextLine());
    }
}
