package io.hcwatch.bench;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.ParseResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * Health checks' JSON lines per second on one thread, from the bytes a topic gives: the parser as
 * the stream app runs it (its plain-shape reader on Jackson's streaming parser over the bytes, the
 * tree reader for anything else) beside the tree reader alone over the decoded String (Jackson's
 * tree, then each field checked), which read every line before.
 */
public class HealthCheckJsonParseBenchmark extends OneThreadThroughput {

    private final HealthCheckResultJson parser = new HealthCheckResultJson();
    private byte[][] lines;
    private int next;

    @Setup(Level.Trial)
    public void load() {
        List<String> text = Corpus.healthCheckJson(4096, 42);
        lines = new byte[text.size()][];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = text.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    private byte[] nextLine() {
        next = (next + 1) & (lines.length - 1);
        return lines[next];
    }

    @Benchmark
    public ParseResult<HealthCheckResult> plainShapeReader() {
        return parser.parse(nextLine());
    }

    @Benchmark
    public ParseResult<HealthCheckResult> treeReaderAlone() {
        return HealthCheckResultJson.readFields(new String(nextLine(), StandardCharsets.UTF_8));
    }
}
