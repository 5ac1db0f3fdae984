package io.hcwatch.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** bench live times each app by its committed offsets, so the apps must commit often enough to time. */
class LiveBenchSettingsTest {

    @Test
    void theAppsCommitEverySecondUnlessTheRunSaysOtherwise() {
        assertThat(LiveBench.timed(Map.of())).containsEntry("commit.interval.ms", "1000");
        assertThat(LiveBench.timed(Map.of("commit.interval.ms", "100", "num.stream.threads", "2")))
                .containsEntry("commit.interval.ms", "100").containsEntry("num.stream.threads", "2");
    }
}
