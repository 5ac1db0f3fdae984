package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.metrics.PipelineMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fleet monitor's clock at a watermark of T0+45s, its last step at T0+40s, a 30 s grace
 * period; one record at a time, as the clock found its envelope (late or not).
 */
class LateArrivalsTest {

    private static final long T0 = 1_772_548_200_000L;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LateArrivals arrivals = new LateArrivals("fleet", new PipelineMetrics(registry), 30_000);

    @ParameterizedTest(name = "a record at T0+{0}s, envelope late {1}: behind {2}, late {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # at (s) | late envelope | behind | late | why
            41       | false         | 0      | 0    | newer than every step: judged at the next one
            40       | false         | 0      | 0    | the step at T0+40s judged the time before it, not T0+40s
            35       | false         | 1      | 0    | the step at T0+40s judged without it
            14       | true          | 0      | 1    | older than the watermark less the grace period (T0+15s)
            14       | false         | 1      | 0    | the clock's verdict on its envelope decides lateness
            15       | true          | 1      | 0    | at the edge of the grace period, in a late envelope: behind only
            """)
    void aRecordOlderThanTheLastStepIsBehindAndBeyondTheGracePeriodLate(int at, boolean lateEnvelope, int behind, int late,
                                                                       String why) {
        arrivals.count(new long[] {T0 + at * 1000L}, lateEnvelope, T0 + 45_000, T0 + 40_000);

        assertThat(count(PipelineMetrics.BEHIND)).as(why).isEqualTo(behind);
        assertThat(count(PipelineMetrics.LATE)).as(why).isEqualTo(late);
    }

    private long count(String name) {
        return (long) registry.find(name).tag("monitor", "fleet").counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
