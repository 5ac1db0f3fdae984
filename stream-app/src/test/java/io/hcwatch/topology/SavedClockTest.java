package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.input.Check;
import io.hcwatch.time.MonitorClock;
import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A monitor clock survives a restart through its store: watermark, reports and held records, in order. */
class SavedClockTest {

    private static final long T0 = 1_772_546_400_000L;
    private final SavedClock.Codec codec = new SavedClock.Codec();

    @Test
    void aClockRestoredFromItsEncodedEntriesReleasesTheSameRecordsInTheSameOrder() {
        MonitorClock<Envelope> clock = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        Journal journal = new Journal();
        clock.report("health-0", T0, false, 0, journal);
        clock.report("health-1", T0, false, 0, journal);
        clock.offer("tg-a", check("tg-a", T0 + 3_000), T0 + 3_000, 0, journal);
        clock.offer("tg-b", check("tg-b", T0 + 1_000), T0 + 1_000, 0, journal);
        clock.report("health-0", T0 + 5_000, false, 0, journal);

        // what a commit writes, and what a restart reads back
        ObjectStore<SavedClock.Entry> restored = new DetachedStore<>("fleet-state-clock");
        restored.put(SavedClock.HEADER, codec.decode(codec.encode(new SavedClock.LiveHeader(clock))));
        for (MonitorClock.Held<Envelope> h : clock.held()) {
            restored.put(SavedClock.heldKey(h), codec.decode(codec.encode(new SavedClock.HeldRecord(h))));
        }
        MonitorClock<Envelope> after = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        SavedClock.restore(restored, after, 60_000, (key, time) -> false);
        assertThat(after.watermark()).isEqualTo(clock.watermark());
        assertThat(after.heldCount()).isEqualTo(2);

        Journal next = new Journal();
        after.report("health-1", T0 + 5_000, false, 60_000, next);
        assertThat(next.applied).containsExactly("tg-b@1", "tg-a@3");
    }

    @Test
    void aRestoredHeldRecordItsKeyAlreadyTookInIsDroppedAndTheOthersComeBackInOrder() {
        MonitorClock<Envelope> clock = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        Journal journal = new Journal();
        clock.report("health-0", T0, false, 0, journal);
        clock.report("health-1", T0, false, 0, journal);
        clock.offer("tg-a", check("tg-a", T0 + 1_000), T0 + 1_000, 0, journal);
        clock.offer("tg-b", check("tg-b", T0 + 3_000), T0 + 3_000, 0, journal);
        clock.offer("tg-a", check("tg-a", T0 + 7_000), T0 + 7_000, 0, journal);
        ObjectStore<SavedClock.Entry> restored = new DetachedStore<>("fleet-state-clock");
        for (MonitorClock.Held<Envelope> h : clock.held()) {
            restored.put(SavedClock.heldKey(h), codec.decode(codec.encode(new SavedClock.HeldRecord(h))));
        }
        // both are released; tg-a's new state reached the changelog, tg-b's did not, nor did the tombstones
        clock.report("health-0", T0 + 5_000, false, 0, journal);
        clock.report("health-1", T0 + 5_000, false, 0, journal);
        assertThat(journal.applied).containsExactly("tg-a@1", "tg-b@3");
        restored.put(SavedClock.HEADER, codec.decode(codec.encode(new SavedClock.LiveHeader(clock))));

        MonitorClock<Envelope> after = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        SavedClock.restore(restored, after, 60_000, (key, time) -> key.equals("tg-a") && time <= T0 + 1_000);
        assertThat(after.heldCount()).isEqualTo(2);
        assertThat(restored.keys()).hasSize(3);

        Journal next = new Journal();
        after.report("health-0", T0 + 8_000, false, 60_000, next);
        after.report("health-1", T0 + 8_000, false, 60_000, next);
        assertThat(next.applied).containsExactly("tg-b@3", "tg-a@7");
    }

    @Test
    void heldKeysAreTheSequenceInSixteenHexDigitsSoTheyListInOrder() {
        assertThat(SavedClock.heldKey(new MonitorClock.Held<>("k", null, 0, 0))).isEqualTo("held/0000000000000000");
        assertThat(SavedClock.heldKey(new MonitorClock.Held<>("k", null, 0, 0x1fL))).isEqualTo("held/000000000000001f");
        assertThat(SavedClock.heldKey(new MonitorClock.Held<>("k", null, 0, Long.MAX_VALUE))).isEqualTo("held/7fffffffffffffff");
    }

    @Test
    void anEntryOfAKindThisVersionDoesNotKnowFailsLoudly() {
        assertThatThrownBy(() -> codec.decode(new byte[] {9, 0, 0})).hasMessageContaining("unknown kind 9");
    }

    private static Envelope check(String tg, long ts) {
        return Envelope.of(new Check(HealthCheckResult.newBuilder().setTs(Instant.ofEpochMilli(ts)).setSource("alb")
                .setTargetGroup(tg).setTarget("i-1").setOutcome(CheckOutcome.pass).build()));
    }

    private static final class Journal implements MonitorClock.Stage<Envelope> {
        final List<String> applied = new ArrayList<>();

        @Override
        public void apply(String key, Envelope event, long time, boolean late) {
            applied.add(key + "@" + (time - T0) / 1000);
        }

        @Override
        public void step(long at) {
        }
    }
}
