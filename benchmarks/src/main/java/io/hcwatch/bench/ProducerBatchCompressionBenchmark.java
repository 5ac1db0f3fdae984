package io.hcwatch.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.utils.ByteBufferOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One producer batch through each codec Kafka's producer offers, as its record accumulator does it:
 * open the codec's stream on the batch buffer, write the records, close. Two sizes: a batch of one
 * ~300 B record (what hcwatch's internal topics mostly get: a summary, a check batch or a progress
 * report to one partition within the 5 ms linger) and a full 256 KiB batch of ALB lines (what an
 * input or a pass-through's output gets). The codec is {@code compression.type} in StreamApp.
 */
public class ProducerBatchCompressionBenchmark extends OneThreadThroughput {

    /** The record batch format today's producers write (v2). */
    private static final byte MAGIC_V2 = 2;

    @Param({"lz4", "snappy", "zstd", "none"})
    public String codec;

    @Param({"300", "262144"})
    public int batchBytes;

    private Compression compression;
    private byte[] records;
    private ByteBuffer buffer;

    @Setup(Level.Trial)
    public void batch() {
        compression = switch (codec) {
            case "lz4" -> Compression.lz4().build();
            case "snappy" -> Compression.snappy().build();
            case "zstd" -> Compression.zstd().build();
            case "none" -> Compression.NONE;
            default -> throw new IllegalArgumentException(codec);
        };
        StringBuilder text = new StringBuilder(batchBytes + 1024);
        List<String> lines = Corpus.albLines(2000, 7);
        for (int i = 0; text.length() < batchBytes; i++) {
            text.append(lines.get(i % lines.size())).append('\n');
        }
        records = text.substring(0, batchBytes).getBytes(StandardCharsets.UTF_8);
        buffer = ByteBuffer.allocate(batchBytes + 64 * 1024);
    }

    /** @return the compressed size, so the work is not dropped */
    @Benchmark
    public int oneBatch() throws IOException {
        buffer.clear();
        ByteBufferOutputStream out = new ByteBufferOutputStream(buffer);
        try (OutputStream stream = compression.wrapForOutput(out, MAGIC_V2)) {
            for (int off = 0; off < records.length; off += 300) {
                stream.write(records, off, Math.min(300, records.length - off));
            }
        }
        return out.position();
    }
}
