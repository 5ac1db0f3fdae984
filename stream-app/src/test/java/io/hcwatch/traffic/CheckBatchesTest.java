package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckBatchesTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private final CheckBatches batches = new CheckBatches(3);

    private static HealthCheckResult check(String targetGroup, String target, long ts) {
        return HealthCheckResult.newBuilder().setTs(Instant.ofEpochMilli(ts)).setTargetGroup(targetGroup).setTarget(target)
                .setOutcome(CheckOutcome.pass).build();
    }

    @Test
    void aBatchLeavesWhenFullInTheOrderItsChecksCame() {
        assertThat(batches.add(check("tg-a", "i-1", T0 + 900))).isNull();
        assertThat(batches.add(check("tg-a", "i-2", T0 + 100))).isNull();
        List<HealthCheckResult> full = batches.add(check("tg-a", "i-3", T0 + 500));
        assertThat(full).extracting(HealthCheckResult::getTarget).containsExactly("i-1", "i-2", "i-3");
        assertThat(batches.isEmpty()).isTrue();
    }

    @Test
    void batchesAreOneTargetGroupAndOneSecondAndDrainOldestSecondFirst() {
        batches.add(check("tg-a", "i-1", T0 + 1_200));
        batches.add(check("tg-b", "i-9", T0 + 1_300));
        batches.add(check("tg-a", "i-2", T0 + 400)); // late: an older second than the one before it
        batches.add(check("tg-a", "i-3", T0 + 2_000));
        List<List<HealthCheckResult>> drained = batches.drainBefore(T0 + 2_000);
        assertThat(drained).extracting(b -> b.get(0).getTarget()).containsExactly("i-2", "i-1", "i-9");
        assertThat(drained).allSatisfy(b -> assertThat(b).hasSize(1));
        assertThat(batches.snapshot()).extracting(HealthCheckResult::getTarget).containsExactly("i-3");
    }

    @Test
    void whatASnapshotHoldsComesBackAsTheSameBatchesAfterARestart() {
        batches.add(check("tg-a", "i-1", T0));
        batches.add(check("tg-a", "i-2", T0 + 10));
        batches.add(check("tg-b", "i-9", T0 + 20));
        CheckBatches restarted = new CheckBatches(3);
        batches.snapshot().forEach(restarted::restore);
        assertThat(restarted.drainBefore(Long.MAX_VALUE)).isEqualTo(batches.drainBefore(Long.MAX_VALUE));
        assertThat(restarted.add(check("tg-a", "i-3", T0 + 30))).isNull(); // the restored batch was drained with the rest
    }
}
