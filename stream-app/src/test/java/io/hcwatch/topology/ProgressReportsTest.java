package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.Progress;
import io.hcwatch.traffic.CardinalityLimits;
import java.time.Duration;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** A partition's progress goes to every monitor its source paces, never past what it still holds, and only when it changed. */
class ProgressReportsTest {

    private final IngestRecords records = new IngestRecords();
    private boolean lagging;

    private ProgressReports reports(Source source) {
        IngestSettings settings = new IngestSettings(Duration.ofMillis(100), 16, Duration.ofSeconds(2), Duration.ZERO,
                CardinalityLimits.Limits.from(io.hcwatch.config.Settings.defaults()), false);
        return new ProgressReports(source, settings, records.outbox(source.id() + "-1"), () -> lagging);
    }

    private String last(int back) {
        Record<String, Routed> r = records.sent.get(records.sent.size() - back);
        Progress p = (Progress) r.value().envelope().payload();
        return r.value().destination() + " '" + r.key() + "' " + (p.eventTime() - T0) + (p.idle() ? " idle" : "") + " from "
                + r.value().envelope().upstream();
    }

    @Test
    void aReportGoesToEveryPacedMonitorWithNothingHeldBeyondIt() {
        ProgressReports reports = reports(Source.HEALTH);
        reports.read(T0 + 5_000, 0);
        reports.report(() -> T0 + 3_000, 10);
        assertThat(records.sent).hasSize(2);
        assertThat(last(2)).isEqualTo("FLEET '' 2999 from health-1");
        assertThat(last(1)).isEqualTo("FEED '' 2999 from health-1");
        reports.report(() -> Long.MAX_VALUE, 20);
        assertThat(last(1)).isEqualTo("FEED '' 5000 from health-1");
    }

    @Test
    void anUnchangedReportIsNotSentAgainAndAReportIsSentWhenDueOnly() {
        ProgressReports reports = reports(Source.HEALTH);
        reports.read(T0, 0);
        reports.reportIfDue(() -> Long.MAX_VALUE, 0);
        assertThat(records.sent).isEmpty();
        reports.due();
        reports.reportIfDue(() -> Long.MAX_VALUE, 0);
        assertThat(records.sent).hasSize(2);
        reports.due();
        reports.reportIfDue(() -> Long.MAX_VALUE, 1);
        assertThat(records.sent).hasSize(2);
        reports.read(T0 + 1_000, 2);
        reports.due();
        reports.forgetDue();
        reports.reportIfDue(() -> Long.MAX_VALUE, 2);
        assertThat(records.sent).hasSize(2);
    }

    @Test
    void aQuietPartitionHoldingNothingReportsItselfIdleUnlessItsConsumerLags() {
        ProgressReports reports = reports(Source.ALB);
        reports.read(T0, 0);
        reports.report(() -> Long.MAX_VALUE, 0);
        for (int tick = 0; tick < 20; tick++) {
            reports.tick();
        }
        lagging = true;
        reports.report(() -> Long.MAX_VALUE, 2_000);
        assertThat(last(1)).isEqualTo("FEED '' 0 from alb-1");
        lagging = false;
        reports.report(() -> Long.MAX_VALUE, 2_000);
        assertThat(last(1)).isEqualTo("FEED '' 0 idle from alb-1");
        assertThat(records.sent).extracting(r -> r.value().destination()).contains(Routed.Destination.FLOOD);
    }

    @Test
    void configurationsPaceNothingAndReportNothing() {
        ProgressReports reports = reports(Source.CONFIG);
        reports.read(T0, 0);
        reports.due();
        reports.reportIfDue(() -> Long.MAX_VALUE, 0);
        reports.report(() -> Long.MAX_VALUE, 60_000);
        assertThat(records.sent).isEmpty();
    }
}
