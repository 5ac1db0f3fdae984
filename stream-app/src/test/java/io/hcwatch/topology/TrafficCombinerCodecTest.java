package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.traffic.TrafficCombiner;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the pending store keeps across a restart: summaries and held health checks, sent on after it. */
class TrafficCombinerCodecTest {

    private static final Instant T0 = Instant.parse("2026-03-03T14:30:00Z");

    @Test
    void heldChecksAndSummariesComeBackFromTheStore() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addHaproxy(HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(T0).setHost("lb1")
                .setProcess("haproxy").setFrontend("fe").setFeconn(40).setActconn(50).setStatusCode(200)
                .setClientIp("198.51.100.7").setTerminationState("----").build());
        for (int i = 0; i < 3; i++) {
            combiner.addCheck(HealthCheckResult.newBuilder().setTs(T0.plusMillis(i)).setTargetGroup("prod-web-tg")
                    .setTarget("i-" + i).setOutcome(CheckOutcome.timeout).setLatencyMs(2_000).build());
        }
        TrafficCombinerCodec codec = new TrafficCombinerCodec(16);
        TrafficCombiner restored = codec.decode(codec.encode(combiner));

        List<List<HealthCheckResult>> batches = restored.drainChecksBefore(Long.MAX_VALUE);
        assertThat(batches).singleElement().satisfies(b ->
                assertThat(b).extracting(HealthCheckResult::getTarget).containsExactly("i-0", "i-1", "i-2"));
        assertThat(restored.drainAll()).hasAtLeastOneElementOfType(FrontendSummary.class);
        assertThat(restored.isEmpty()).isTrue();
    }

    @Test
    void aTargetsLatencySketchComesBackFromTheStore() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addAlb(new io.hcwatch.input.AlbTrafficLine(T0.toEpochMilli(), "app/prod-web/50dc6c495c0c9188", "prod-web-tg",
                "198.51.100.7", "10.0.1.5", 8080, 3.9, 200, "GET", "https://www.example.com:443/"));
        TrafficCombinerCodec codec = new TrafficCombinerCodec(16);
        io.hcwatch.avro.internal.TargetTraffic t = codec.decode(codec.encode(combiner)).drainAll().stream()
                .filter(io.hcwatch.input.TargetSummary.class::isInstance)
                .map(s -> ((io.hcwatch.input.TargetSummary) s).traffic()).findFirst().orElseThrow();
        // 3.9 s in a sketch of one significant digit: within its ~6% bucket
        assertThat(io.hcwatch.traffic.LatencySketch.decode(t.getByTarget().get("10.0.1.5:8080").getLatency()).getMaxValue())
                .isBetween(3_840L, 4_095L);
    }

    /**
     * A pending store a newer release left behind, in the layout of the first releases (a count, then
     * each part's length and envelope), one part of an envelope version this release does not know.
     */
    @Test
    void aPendingPartOfANewerReleaseDoesNotStopTheOthersComingBack() {
        HealthCheckResult check = HealthCheckResult.newBuilder().setTs(T0).setTargetGroup("prod-web-tg")
                .setTarget("i-0").setOutcome(CheckOutcome.timeout).setLatencyMs(2_000).build();
        EnvelopeSerde serde = new EnvelopeSerde();
        byte[] known = serde.serialize(null, Envelope.of(new io.hcwatch.input.Check(check)));
        byte[] newer = known.clone();
        newer[2] = (byte) (Envelope.Kind.HEALTH_CHECK.version() + 1);
        java.nio.ByteBuffer layout0 = java.nio.ByteBuffer.allocate(4 + 4 + known.length + 4 + newer.length)
                .putInt(2).putInt(newer.length).put(newer).putInt(known.length).put(known);

        TrafficCombinerCodec codec = new TrafficCombinerCodec(16);
        TrafficCombiner restored = codec.decode(layout0.array());

        assertThat(restored.takeFromNewerRelease()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(newer);
            assertThat(r.why()).contains("HEALTH_CHECK record of schema version " + newer[2]);
        });
        assertThat(restored.takeFromNewerRelease()).as("taken once").isEmpty();
        // written back in this release's layout, without what it could not read
        TrafficCombiner again = codec.decode(codec.encode(restored));
        assertThat(again.takeFromNewerRelease()).isEmpty();
        assertThat(again.drainChecksBefore(Long.MAX_VALUE)).singleElement()
                .satisfies(b -> assertThat(b).extracting(HealthCheckResult::getTarget).containsExactly("i-0"));
    }

    @Test
    void aPendingStoreOfANewerLayoutIsKeptWholeAsItsBytes() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addCheck(HealthCheckResult.newBuilder().setTs(T0).setTargetGroup("prod-web-tg")
                .setTarget("i-0").setOutcome(CheckOutcome.timeout).setLatencyMs(2_000).build());
        TrafficCombinerCodec codec = new TrafficCombinerCodec(16);
        byte[] newer = codec.encode(combiner);
        assertThat(newer[0]).isEqualTo((byte) TrafficCombinerCodec.LAYOUT);
        newer[0] = (byte) (TrafficCombinerCodec.LAYOUT + 1);

        TrafficCombiner restored = codec.decode(newer);

        assertThat(restored.isEmpty()).isTrue();
        assertThat(restored.takeFromNewerRelease()).singleElement().satisfies(r -> {
            assertThat(r.bytes()).isEqualTo(newer);
            assertThat(r.why()).contains("pending store of layout " + (TrafficCombinerCodec.LAYOUT + 1));
        });
    }
}
