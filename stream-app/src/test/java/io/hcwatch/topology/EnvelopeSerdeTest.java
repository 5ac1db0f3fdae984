package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.Check;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class EnvelopeSerdeTest {

    private final EnvelopeSerde serde = new EnvelopeSerde();

    private static HealthCheckResult check(String target) {
        return HealthCheckResult.newBuilder().setTs(Instant.parse("2026-03-03T14:32:45.120Z")).setTargetGroup("prod-web-tg")
                .setTarget(target).setOutcome(CheckOutcome.timeout).setLatencyMs(2_041).build();
    }

    @Test
    void aRecordComesBackWithItsKindAndUpstream() {
        Envelope back = serde.deserialize("fleet", serde.serialize("fleet", new Envelope(new Check(check("i-0abc0003")), "health-1")));
        assertThat(back.kind()).isEqualTo(Envelope.Kind.HEALTH_CHECK);
        assertThat(back.upstream()).isEqualTo("health-1");
        assertThat(back.payload()).isEqualTo(new Check(check("i-0abc0003")));
        assertThat(serde.deserialize("fleet", serde.serialize("fleet", Envelope.of(new Check(check("x"))))).upstream()).isNull();
    }

    @Test
    void aWriteThatFailsHalfwayLeavesNothingBehindForTheNext() {
        byte[] clean = new EnvelopeSerde().serialize("fleet", new Envelope(new Check(check("i-0abc0003")), "health-1"));
        HealthCheckResult broken = check("i-0abc0003");
        broken.setAz("us-east-1a");
        broken.setTarget(null); // fails after the fields before it are in the encoder's buffer
        assertThatThrownBy(() -> serde.serialize("fleet", new Envelope(new Check(broken), "health-1")))
                .isInstanceOf(SerializationException.class);
        assertThat(serde.serialize("fleet", new Envelope(new Check(check("i-0abc0003")), "health-1"))).isEqualTo(clean);
    }

    /** Avro would allocate the 200 MB the upstream name claims; the record is 8 bytes long. */
    @Test
    void anInternalRecordClaimingMoreThanItHoldsIsRefusedBeforeDecoding() {
        byte[] honest = serde.serialize("fleet", new Envelope(new Check(check("i-0abc0003")), "health-1"));
        // zig-zag varint of 200,000,000 in place of the upstream name's length
        byte[] bomb = {honest[0], honest[1], honest[2], (byte) 0x80, (byte) 0x88, (byte) 0xde, (byte) 0xbe, 0x01};

        assertThatThrownBy(() -> serde.deserialize("fleet", bomb)).isInstanceOf(SerializationException.class)
                .cause().hasMessageContaining("string of 200000000 bytes claimed at byte 3");
    }

    /**
     * A traffic summary an earlier release left on a repartition topic or in a pending store (schema
     * version 1: no latency sketches, no source), written here by hand with Avro's generic writer.
     */
    @Test
    void aTargetTrafficOfVersionOneIsReadWithNoSketchesAndAsAlb() throws Exception {
        org.apache.avro.Schema v1;
        try (java.io.InputStream in = getClass().getResourceAsStream("/internal-schema-history/TargetTraffic/v1.avsc")) {
            v1 = new org.apache.avro.Schema.Parser().parse(in);
        }
        org.apache.avro.Schema countSchema = v1.getField("by_target").schema().getValueType();
        org.apache.avro.generic.GenericRecord count = new org.apache.avro.generic.GenericData.Record(countSchema);
        count.put("requests", 7L);
        count.put("succeeded", 6L);
        count.put("processing_ms", 84.0);
        org.apache.avro.generic.GenericRecord traffic = new org.apache.avro.generic.GenericData.Record(v1);
        traffic.put("target_group", "prod-web-tg");
        traffic.put("lb", null);
        traffic.put("bucket_start", 1_772_548_200_000L);
        traffic.put("requests", 7L);
        traffic.put("succeeded", 6L);
        traffic.put("elb_5xx", 1L);
        traffic.put("no_target_503", 0L);
        traffic.put("by_target", java.util.Map.of("10.0.1.5:8080", count));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(new byte[] {0, 4, 1}); // versioned envelope, kind TARGET_TRAFFIC, schema version 1
        org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        encoder.writeString("alb-0");
        new org.apache.avro.generic.GenericDatumWriter<org.apache.avro.generic.GenericRecord>(v1).write(traffic, encoder);
        encoder.flush();

        Envelope back = serde.deserialize("fleet", out.toByteArray());
        io.hcwatch.avro.internal.TargetTraffic t = ((io.hcwatch.input.TargetSummary) back.payload()).traffic();
        assertThat(t.getSource()).isNull();
        assertThat(t.getByTarget().get("10.0.1.5:8080").getRequests()).isEqualTo(7);
        assertThat(t.getByTarget().get("10.0.1.5:8080").getLatency().remaining()).isZero();
        assertThat(back.upstream()).isEqualTo("alb-0");
    }

    /**
     * A poll an earlier release put on a repartition topic (envelope schema version 1: frontends
     * without holders): the bytes InternalBytesGoldenTest pinned for it before version 2.
     */
    @Test
    void aHaproxyStatsOfVersionOneIsReadWithoutHolders() {
        byte[] v1 = java.util.HexFormat.of().parseHex("000a011e686170726f78792d73746174732d30a8edd8c19667066c6231000000"
                + "0002ea0202d00f00000000020c66655f77656202084f50454ee802029003fc0200180000000000000000");

        Envelope back = serde.deserialize("host", v1);

        io.hcwatch.avro.v1.HaproxyStats stats = ((io.hcwatch.input.Poll) back.payload()).stats();
        assertThat(stats.getHost()).isEqualTo("lb1");
        assertThat(stats.getFrontends()).singleElement().satisfies(f -> {
            assertThat(f.getName()).isEqualTo("fe_web");
            assertThat(f.getHolders()).isNull();
            assertThat(f.getSessionsListed()).isNull();
        });
        assertThat(back.upstream()).isEqualTo("haproxy-stats-0");
    }

    /** An LbConfig an earlier release put on a repartition topic (envelope schema version 1: no log_format). */
    @Test
    void anLbConfigOfVersionOneIsReadWithoutALogFormat() throws Exception {
        org.apache.avro.Schema v1;
        try (java.io.InputStream in = getClass().getResourceAsStream("/internal-schema-history/LbConfig/v1.avsc")) {
            v1 = new org.apache.avro.Schema.Parser().parse(in);
        }
        org.apache.avro.generic.GenericRecord config = new org.apache.avro.generic.GenericData.Record(v1);
        config.put("kind", new org.apache.avro.generic.GenericData.EnumSymbol(v1.getField("kind").schema(), "haproxy_frontend"));
        config.put("id", "lb1/www");
        config.put("ts", 1_772_548_200_000L);
        config.put("host", "lb1");
        config.put("frontend", "www");
        config.put("maxconn", 2000);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(new byte[] {0, 3, 1}); // versioned envelope, kind LB_CONFIG, schema version 1
        org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        encoder.writeString("config-0");
        new org.apache.avro.generic.GenericDatumWriter<org.apache.avro.generic.GenericRecord>(v1).write(config, encoder);
        encoder.flush();

        Envelope back = serde.deserialize("host", out.toByteArray());
        io.hcwatch.avro.v1.LbConfig c = ((io.hcwatch.input.LoadBalancerConfig) back.payload()).config();
        assertThat(c.getMaxconn()).isEqualTo(2000);
        assertThat(c.getLogFormat()).isNull();
    }
}
