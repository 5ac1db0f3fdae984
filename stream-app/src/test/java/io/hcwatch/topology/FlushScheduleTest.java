package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.config.Settings;
import io.hcwatch.traffic.CardinalityLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the ingest flushes: each row is a run of 10 ms ticks, what happened before each, and the ticks that flush. */
class FlushScheduleTest {

    /**
     * @param ticks one letter per tick: {@code r} a record was read before it, {@code l} nothing read
     *              but the consumer lags, {@code .} nothing read and not lagging
     */
    @ParameterizedTest(name = "quiet flush {0}: {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            // the first tick flushes (nothing flushed yet); a burst goes out one tick after its last record,
            // and a quiet partition with nothing new only on the flush interval
            "10ms | .r.....   | 0 2",
            "10ms | .r....r.  | 0 2 7",
            "10ms | .rr.r.    | 0 3 5",
            // a steady stream goes out once a flush interval (100 ms), as without a quiet flush
            "10ms | rrrrrrrrrrrrrrrrrrrrrrr | 0 10 20",
            // a lagging consumer is not quiet: it is only waiting for its next fetch
            "10ms | .rlllll.  | 0 7",
            "10ms | .rllllllllllll | 0 10",
            // after a quiet flush the interval counts from it
            "10ms | .r.rrrrrrrrrrrr | 0 2 12",
            // without a quiet flush every tick is a flush interval's, and flushes
            "0ms  | .r.rr     | 0 1 2 3 4",
    })
    void flushes(String quietFlush, String ticks, String flushingTicks) {
        Duration quiet = Duration.parse("PT" + quietFlush.replace("ms", "").trim() + "S").dividedBy(1000);
        IngestSettings settings = new IngestSettings(Duration.ofMillis(100), 16, Duration.ofSeconds(2), Duration.ZERO,
                CardinalityLimits.Limits.from(Settings.defaults()), false, quiet);
        FlushSchedule schedule = new FlushSchedule(settings);
        long step = settings.tickInterval().toMillis();
        List<String> flushed = new ArrayList<>();
        for (int i = 0; i < ticks.length(); i++) {
            char c = ticks.charAt(i);
            if (c == 'r') {
                schedule.read();
            }
            if (schedule.flushAt(1_000_000 + i * step, c == 'l')) {
                flushed.add(String.valueOf(i));
            }
        }
        assertThat(String.join(" ", flushed)).isEqualTo(flushingTicks);
    }
}
