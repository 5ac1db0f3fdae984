package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourceLagsTest {

    private static final long T0 = Instant.parse("2026-12-02T10:00:00Z").toEpochMilli();
    private static final long MIN = 60_000;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<String> warnings = new ArrayList<>();
    private final SourceLags lags = new SourceLags(registry, warnings::add);

    /** Two 5-minute objects a minute after their periods, produced without a timestamp of their own (-1: arrival is the read). */
    private static void twoObjects(SourceLags lags, SourceLags.Partition p) {
        for (long end : new long[] {T0, T0 + 5 * MIN}) {
            for (long e = end - 5 * MIN; e < end; e += 1_000) {
                lags.read(p, e, -1, end + MIN);
            }
        }
    }

    private double gauge(String source) {
        return registry.get(SourceLags.LAG).tag("source", source).gauge().value();
    }

    @Test
    void aBatchedSourceWithoutADelayIsWarnedOfOnceNamingTheSetting() {
        SourceLags.Partition a = lags.add(Source.ALB, false);
        SourceLags.Partition b = lags.add(Source.ALB, false);
        assertThat(gauge("alb")).isNaN();
        twoObjects(lags, a);
        twoObjects(lags, b);
        assertThat(warnings).hasSize(1);
        // judged at its first record, then every 10 s of wall time: at the second object's first line (lag 360 s),
        // with the first object's 300 (61 .. 360 s) in the window, read for 5 minutes: the 151st smallest of 301 is 211 s
        assertThat(warnings.get(0)).startsWith("alb records reach Kafka a median 211s after their events (up to 360s, 301 records")
                .contains("detect.window.source-delay=alb=6m");
        assertThat(gauge("alb")).isEqualTo(211.0);
        assertThat(gauge("health")).isNaN();
    }

    @Test
    void aSourceTheSettingNamesIsOnlyMeasured() {
        SourceLags.Partition p = lags.add(Source.ALB_HEALTH, true);
        twoObjects(lags, p);
        assertThat(warnings).isEmpty();
        assertThat(gauge("alb-health")).isEqualTo(211.0);
        lags.remove(p);
        assertThat(gauge("alb-health")).isNaN();
    }
}
