package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.TargetCount;
import io.hcwatch.avro.internal.TargetTraffic;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.TargetSummary;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Per-target counts and latency sketches in the per-second summaries, for gray_failure. */
class TrafficCombinerTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();

    @Test
    void albLinesAreCountedPerTargetWithTheirProcessingTimes() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        // target 10.0.1.5: 200 in 0.012 s, 502 with no processing time (-1 in the log), 200 in 4.1 s
        combiner.addAlb(alb(T0 + 10, "10.0.1.5", 0.012, 200));
        combiner.addAlb(alb(T0 + 20, "10.0.1.5", Double.NaN, 502));
        combiner.addAlb(alb(T0 + 30, "10.0.1.5", 4.1, 200));
        combiner.addAlb(alb(T0 + 40, "10.0.2.9", 0.030, 404));
        combiner.addAlb(alb(T0 + 50, null, Double.NaN, 503));
        TargetSummary summary = single(combiner.drainAll());
        TargetTraffic t = summary.traffic();
        assertThat(t.getSource()).isNull();
        assertThat(t.getRequests()).isEqualTo(5);
        TargetCount bad = t.getByTarget().get("10.0.1.5:8080");
        assertThat(bad.getRequests()).isEqualTo(3);
        assertThat(bad.getSucceeded()).isEqualTo(2);
        Histogram h = LatencySketch.of(summary, "10.0.1.5:8080");
        assertThat(h.getTotalCount()).isEqualTo(2);
        // one significant digit: each value within its bucket (~6%)
        assertThat(h.getMinValue()).isBetween(11L, 12L);
        assertThat(h.getMaxValue()).isBetween(4_096L, 4_352L);
        TargetCount good = t.getByTarget().get("10.0.2.9:8080");
        assertThat(good.getSucceeded()).as("a 404 is the client's business").isEqualTo(1);
        assertThat(LatencySketch.of(summary, "10.0.2.9:8080").getTotalCount()).isEqualTo(1);
    }

    @Test
    void haproxyHttpLinesAreCountedPerBackendServerByTr() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addHaproxy(http("be-web", "web1", 15, 200));
        combiner.addHaproxy(http("be-web", "web2", 3_900, 200));
        combiner.addHaproxy(http("be-web", "web2", null, 502));
        combiner.addHaproxy(http("be-web", "<NOSRV>", null, 503));
        TargetSummary summary = single(combiner.drainAll());
        TargetTraffic t = summary.traffic();
        assertThat(t.getSource()).isEqualTo(TrafficCombiner.HAPROXY_BACKEND);
        assertThat(t.getTargetGroup()).isEqualTo("be-web");
        assertThat(t.getByTarget()).containsOnlyKeys("web1", "web2");
        assertThat(t.getRequests()).as("<NOSRV> names no server to compare").isEqualTo(3);
        assertThat(t.getElb5xx()).isEqualTo(1);
        TargetCount web2 = t.getByTarget().get("web2");
        assertThat(web2.getRequests()).isEqualTo(2);
        assertThat(web2.getSucceeded()).isEqualTo(1);
        assertThat(LatencySketch.of(summary, "web2").getMaxValue()).isBetween(3_840L, 4_095L);
    }

    @Test
    void sketchesSurviveTheSnapshotAndRestore() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addAlb(alb(T0, "10.0.1.5", 0.250, 200));
        TrafficCombiner restored = new TrafficCombiner(16);
        restored.restore(combiner.snapshot());
        restored.addAlb(alb(T0 + 100, "10.0.1.5", 0.040, 200));
        Histogram h = LatencySketch.of(single(restored.drainAll()), "10.0.1.5:8080");
        assertThat(h.getTotalCount()).isEqualTo(2);
        assertThat(h.getMaxValue()).isBetween(248L, 256L);
    }

    /** Replay hands the sketches on live; a summary written to a topic or store must carry them as bytes. */
    @Test
    void aDrainedSummaryWrittenOutCarriesItsSketchesAsBytes() {
        TrafficCombiner combiner = new TrafficCombiner(16);
        combiner.addAlb(alb(T0, "10.0.1.5", 0.250, 200));
        combiner.addAlb(alb(T0 + 100, "10.0.1.5", 0.040, 200));
        TargetSummary summary = single(combiner.drainAll());
        TargetTraffic written = (TargetTraffic) summary.avro();
        Histogram h = LatencySketch.decode(written.getByTarget().get("10.0.1.5:8080").getLatency());
        assertThat(h).isEqualTo(LatencySketch.of(summary, "10.0.1.5:8080"));
        assertThat(h.getTotalCount()).isEqualTo(2);
        assertThat(new TargetSummary(written)).isEqualTo(summary);
    }

    private static TargetSummary single(List<?> drained) {
        return drained.stream().filter(TargetSummary.class::isInstance).map(TargetSummary.class::cast).findFirst().orElseThrow();
    }

    private static AlbTrafficLine alb(long at, String targetIp, double seconds, int status) {
        return new AlbTrafficLine(at, "app/prod-web/50dc6c495c0c9188", "prod-web-tg", "198.51.100.7", targetIp,
                targetIp == null ? -1 : 8080, seconds, status, "GET", "https://www.example.com:443/");
    }

    private static HaproxyRequest http(String backend, String server, Integer tr, int status) {
        return HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(T0)).setHost("lb1")
                .setFrontend("fe-web").setBackend(backend).setServer(server).setTrServer(tr).setStatusCode(status)
                .setClientIp("198.51.100.7").setTerminationState("----").build();
    }
}
