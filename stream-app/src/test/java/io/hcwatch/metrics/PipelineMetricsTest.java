package io.hcwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.detect.AlertType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PipelineMetrics metrics = new PipelineMetrics(registry);

    @Test
    void theSeriesRulesAndDashboardReadExistAtZeroBeforeAnyRecord() {
        metrics.initialize(List.of("alb", "haproxy"), List.of("fleet"));

        assertThat(registry.find(PipelineMetrics.RECORDS).counters()).hasSize(6)
                .allSatisfy(c -> assertThat(c.count()).isZero());
        assertThat(registry.find(PipelineMetrics.LATE).tag("monitor", "fleet").counter()).isNotNull();
        assertThat(registry.find(PipelineMetrics.BEHIND).tag("monitor", "fleet").counter()).isNotNull();
        assertThat(registry.find(PipelineMetrics.ALERTS).tags("type", "correlated_failure", "severity", "critical",
                "status", "firing").counter()).isNotNull();
        // 17 type-severity pairs (gray_failure: warning and error; telemetry_gap: error), firing and resolved
        assertThat(registry.find(PipelineMetrics.ALERTS).counters()).hasSize(2 * 17);
        assertThat(registry.find(PipelineMetrics.PROCESSING_ERRORS).counters())
                .extracting(c -> c.getId().getTag("stage"))
                .containsExactlyInAnyOrder("ingest-alb", "ingest-haproxy", "monitor-fleet");
    }

    @Test
    void everyAlertTypeHasItsSeveritiesListed() {
        assertThat(PipelineMetrics.ALERT_SEVERITIES.keySet())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(AlertType.values()).map(AlertType::id).toList());
    }

    @Test
    void aReasonOrKindFromOutsideTheKnownSetIsCountedAsOther() {
        metrics.rejected("haproxy", "bad_json");
        metrics.rejected("haproxy", "something 10.0.0.1 made up");
        metrics.skipped("haproxy", "Proxy web started.");

        assertThat(registry.find(PipelineMetrics.REJECTED).tag("reason", "bad_json").counter().count()).isEqualTo(1);
        assertThat(registry.find(PipelineMetrics.REJECTED).tag("reason", "other").counter().count()).isEqualTo(1);
        assertThat(registry.find(PipelineMetrics.SKIPPED).tag("kind", "other").counter().count()).isEqualTo(1);
        assertThat(registry.find(PipelineMetrics.RECORDS).tags("source", "haproxy", "outcome", "rejected").counter().count())
                .isEqualTo(2);
    }
}
