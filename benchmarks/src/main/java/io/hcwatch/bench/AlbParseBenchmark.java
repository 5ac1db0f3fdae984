package io.hcwatch.bench;

import io.hcwatch.avro.v1.AlbRequest;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.parse.AlbAccessLogParser;
import io.hcwatch.parse.LineParser;
import io.hcwatch.parse.ParseResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * ALB access-log lines per second on one thread: the hand-written parser beside a regex one, and
 * its traffic view (what the live path reads: the same checks, only the fields summaries use).
 */
public class AlbParseBenchmark extends OneThreadThroughput {

    private final AlbAccessLogParser handWritten = new AlbAccessLogParser();
    private final LineParser<AlbTrafficLine> trafficView = handWritten.traffic();
    private final RegexAlbParser regex = new RegexAlbParser();
    private LineCycle lines;

    @Setup(Level.Trial)
    public void load() {
        lines = new LineCycle(Corpus.albLines(4096, 42));
    }

    @Benchmark
    public ParseResult<AlbRequest> handWrittenTokenizer() {
        return handWritten.parse(lines.next());
    }

    @Benchmark
    public ParseResult<AlbTrafficLine> handWrittenTrafficView() {
        return trafficView.parse(lines.next());
    }

    @Benchmark
    public AlbRequest javaUtilRegex() {
        return regex.parse(lines.next());
    }
}
