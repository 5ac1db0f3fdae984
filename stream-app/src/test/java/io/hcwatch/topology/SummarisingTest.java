package io.hcwatch.topology;

import static io.hcwatch.topology.IngestRecords.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.Summary;
import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.traffic.TrafficCombiner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A partition's seconds are held until a newer one starts, then released oldest first; a restart releases what was held. */
class SummarisingTest {

    private final ObjectStore<TrafficCombiner> store = new DetachedStore<>("pending-alb");
    private final List<String> released = new ArrayList<>();
    private int newerSeconds;

    private Summarising seconds() {
        return new Summarising(store, 16, new Summarising.Release() {
            @Override
            public void summary(Summary summary) {
                released.add(summary.avro().getClass().getSimpleName() + "@" + (summary.eventTime() - T0) / 1000);
            }

            @Override
            public void checks(List<HealthCheckResult> batch) {
                released.add(batch.size() + " checks of " + batch.get(0).getTargetGroup());
            }
        }, () -> newerSeconds++);
    }

    @Test
    void aSecondIsReleasedWhenARecordOfANewerSecondArrivesAndNotBefore() {
        Summarising seconds = seconds();
        seconds.add(IngestRecords.alb("tg-a", "10.0.1.1", T0 + 100));
        seconds.add(IngestRecords.alb("tg-a", "10.0.1.2", T0 + 900));
        seconds.add(IngestRecords.check("tg-a", "i-1", T0 + 950));
        assertThat(released).isEmpty();
        assertThat(newerSeconds).isZero();
        assertThat(seconds.oldestHeld()).isEqualTo(T0);

        seconds.add(IngestRecords.alb("tg-a", "10.0.1.1", T0 + 2_100));
        // checks first, then the target group's and the ALB's client summary of that second
        assertThat(released).containsExactly("1 checks of tg-a", "TargetTraffic@0", "ClientTraffic@0");
        assertThat(newerSeconds).isEqualTo(1);
        assertThat(seconds.oldestHeld()).isEqualTo(T0 + 2_000);
    }

    @Test
    void aRecordOfAnOlderSecondJoinsTheSecondsHeldAndReleasesNothing() {
        Summarising seconds = seconds();
        seconds.add(IngestRecords.alb("tg-a", "10.0.1.1", T0 + 5_000));
        seconds.add(IngestRecords.alb("tg-a", "10.0.1.1", T0 + 1_000));
        assertThat(released).isEmpty();
        seconds.releaseBefore(Long.MAX_VALUE);
        assertThat(released).containsExactlyInAnyOrder("TargetTraffic@1", "ClientTraffic@1", "TargetTraffic@5", "ClientTraffic@5");
    }

    @Test
    void aFullBatchOfChecksIsReleasedAtOnce() {
        Summarising seconds = seconds();
        // 256 checks per batch: some 30 KB, far below a broker's record limit
        for (int i = 0; i < 256; i++) {
            seconds.add(IngestRecords.check("tg-a", "i-" + i, T0 + i));
        }
        assertThat(released).containsExactly("256 checks of tg-a");
    }

    @Test
    void checksAreReleasedOnDemandWhateverTheirSecondAndSummariesStay() {
        Summarising seconds = seconds();
        seconds.add(IngestRecords.check("tg-a", "i-1", T0 + 100));
        seconds.add(IngestRecords.alb("tg-b", "10.0.1.1", T0 + 200));
        seconds.releaseChecks();
        assertThat(released).containsExactly("1 checks of tg-a");
        assertThat(seconds.oldestHeld()).isEqualTo(T0);
    }

    @Test
    void aRestartedPartitionReleasesWhatItsPredecessorHeld() {
        seconds().add(IngestRecords.haproxy("lb1", "fe", "app", T0 + 300));
        Summarising restarted = seconds();
        assertThat(restarted.oldestHeld()).isEqualTo(T0);
        restarted.releaseBefore(Long.MAX_VALUE);
        assertThat(released).contains("HaproxyTraffic@0", "TargetTraffic@0");
    }
}
