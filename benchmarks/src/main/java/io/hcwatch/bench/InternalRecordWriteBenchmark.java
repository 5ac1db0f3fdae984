package io.hcwatch.bench;

import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.topology.PlannedAvroWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * A health check on its way into the fleet repartition topic, encoded per second on one thread:
 * the planned writer beside Avro's own SpecificDatumWriter (the same bytes), each through a fresh
 * direct encoder (as before) and through a reused buffered one (what EnvelopeSerde does now).
 */
public class InternalRecordWriteBenchmark extends OneThreadThroughput {

    private final PlannedAvroWriter planned = PlannedAvroWriter.of(HealthCheckResult.getClassSchema());
    private final SpecificDatumWriter<SpecificRecord> avroWriter = new SpecificDatumWriter<>(HealthCheckResult.getClassSchema());
    private HealthCheckResult check;

    @Setup(Level.Trial)
    public void build() throws IOException {
        check = HealthCheckResult.newBuilder()
                .setTs(Instant.parse("2026-03-03T14:32:45.120Z")).setSource("alb").setLb("app/prod-web/50dc6c495c0c9188")
                .setTargetGroup("prod-web-tg").setTarget("i-0abc0003").setTargetIp("10.0.1.20").setPort(8080)
                .setAz("us-east-1b").setOutcome(CheckOutcome.timeout).setLatencyMs(2_041).setState(TargetState.unhealthy)
                .setReason("Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setPath("/health").setIntervalMs(10_000).setTimeoutMs(2_000)
                        .setHealthyThreshold(3).setUnhealthyThreshold(2).build())
                .setRegisteredAt(Instant.parse("2026-02-28T09:00:00Z"))
                .build();
    }

    @Benchmark
    public byte[] plannedWrite() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        planned.write(check, encoder);
        return out.toByteArray();
    }

    private final ByteArrayOutputStream reused = new ByteArrayOutputStream(256);
    private BinaryEncoder buffered;

    @Benchmark
    public byte[] plannedWriteBuffered() throws IOException {
        reused.reset();
        buffered = EncoderFactory.get().binaryEncoder(reused, buffered);
        planned.write(check, buffered);
        buffered.flush();
        return reused.toByteArray();
    }

    @Benchmark
    public byte[] avroWriteBuffered() throws IOException {
        reused.reset();
        buffered = EncoderFactory.get().binaryEncoder(reused, buffered);
        avroWriter.write(check, buffered);
        buffered.flush();
        return reused.toByteArray();
    }

    @Benchmark
    public byte[] avroWrite() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        avroWriter.write(check, encoder);
        return out.toByteArray();
    }

}
