package io.hcwatch.bench;

import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.Decoded;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.ParseResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/** HAProxy httplog lines (with syslog prefix) per second on one thread: the hand-written parser beside a regex one. */
public class HaproxyParseBenchmark extends OneThreadThroughput {

    private final HaproxyLogParser handWritten = new HaproxyLogParser();
    private final RegexHaproxyParser regex = new RegexHaproxyParser();
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
    public HaproxyRequest javaUtilRegex() {
        return regex.parse(lines.next());
    }
}
