package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

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
    private static final SavedClock.Refused NONE_REFUSED = (record, key, time) -> {
        throw new AssertionError("refused " + record.why());
    };

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
        SavedClock.restore(restored, after, 60_000, (key, time) -> false, NONE_REFUSED);
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
        SavedClock.restore(restored, after, 60_000, (key, time) -> key.equals("tg-a") && time <= T0 + 1_000, NONE_REFUSED);
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

    /** A held record as this release writes it, with its envelope's schema version raised past this release's. */
    private byte[] heldOfANewerEnvelope(MonitorClock.Held<Envelope> h) {
        byte[] entry = codec.encode(new SavedClock.HeldRecord(h));
        byte[] envelope = new EnvelopeSerde().serialize(null, h.event());
        int at = entry.length - envelope.length; // the envelope ends the entry
        entry[at + 2] = (byte) (Envelope.Kind.HEALTH_CHECK.version() + 1);
        return entry;
    }

    /** This release's entry of {@code entry}, marked as a layout this release does not know. */
    private byte[] ofANewerLayout(SavedClock.Entry entry) {
        byte[] bytes = codec.encode(entry);
        assertThat(bytes[0]).as("versioned").isZero();
        bytes[1] = (byte) (SavedClock.LAYOUT + 1);
        return bytes;
    }

    @Test
    void entriesOfANewerReleaseAreKeptAsTheirBytesAndWrittenBackUnchanged() {
        MonitorClock.Held<Envelope> h = new MonitorClock.Held<>("tg-a", check("tg-a", T0), T0, 7);
        for (byte[] newer : List.of(heldOfANewerEnvelope(h), ofANewerLayout(new SavedClock.HeldRecord(h)), new byte[] {0, 1, 9, 0})) {
            SavedClock.Entry read = codec.decode(newer);
            assertThat(codec.encode(read)).isEqualTo(newer);
        }
        assertThat(codec.decode(ofANewerLayout(new SavedClock.HeldRecord(h)))).isInstanceOf(SavedClock.NewerEntry.class);
        assertThat(((SavedClock.NewerEntry) codec.decode(new byte[] {0, 1, 9, 0})).record().why()).contains("kind 9");
    }

    /**
     * After a rollback: one held record this release wrote, one whose envelope and one whose entry
     * a newer release wrote. The readable one comes back; each other is refused once, with its key and
     * time where they can be read, and deleted from the store (its dead letter keeps it).
     */
    @Test
    void heldRecordsOfANewerReleaseAreRefusedAtRestoreAndTheOthersComeBack() {
        MonitorClock<Envelope> clock = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        Journal journal = new Journal();
        clock.report("health-0", T0, false, 0, journal);
        clock.offer("tg-a", check("tg-a", T0 + 1_000), T0 + 1_000, 0, journal);
        clock.offer("tg-b", check("tg-b", T0 + 2_000), T0 + 2_000, 0, journal);
        clock.offer("tg-c", check("tg-c", T0 + 3_000), T0 + 3_000, 0, journal);
        List<MonitorClock.Held<Envelope>> held = new ArrayList<>(clock.held());
        ObjectStore<SavedClock.Entry> restored = new DetachedStore<>("fleet-state-clock");
        restored.put(SavedClock.HEADER, codec.decode(codec.encode(new SavedClock.LiveHeader(clock))));
        restored.put(SavedClock.heldKey(held.get(0)), codec.decode(codec.encode(new SavedClock.HeldRecord(held.get(0)))));
        restored.put(SavedClock.heldKey(held.get(1)), codec.decode(heldOfANewerEnvelope(held.get(1))));
        restored.put(SavedClock.heldKey(held.get(2)), codec.decode(ofANewerLayout(new SavedClock.HeldRecord(held.get(2)))));

        List<String> refused = new ArrayList<>();
        MonitorClock<Envelope> after = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        SavedClock.restore(restored, after, 60_000, (key, time) -> false,
                (record, key, time) -> refused.add(key + "@" + (time < 0 ? "?" : (time - T0) / 1000) + " " + record.why()));

        assertThat(refused).hasSize(2);
        assertThat(refused.get(0)).startsWith("tg-b@2 HEALTH_CHECK record of schema version ");
        assertThat(refused.get(1)).startsWith("null@? a monitor clock entry of layout " + (SavedClock.LAYOUT + 1));
        assertThat(restored.keys()).containsExactlyInAnyOrder(SavedClock.HEADER, SavedClock.heldKey(held.get(0)));
        Journal next = new Journal();
        after.report("health-0", T0 + 5_000, false, 60_000, next);
        assertThat(next.applied).containsExactly("tg-a@1");
    }

    /** A header of a newer layout: what the upstreams reported is lost, as on a first start; the held records are not. */
    @Test
    void aHeaderOfANewerLayoutLeavesTheClockToStartAfreshWithItsHeldRecords() {
        MonitorClock<Envelope> clock = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        Journal journal = new Journal();
        clock.report("health-0", T0, false, 0, journal);
        clock.offer("tg-a", check("tg-a", T0 + 1_000), T0 + 1_000, 0, journal);
        ObjectStore<SavedClock.Entry> restored = new DetachedStore<>("fleet-state-clock");
        restored.put(SavedClock.HEADER, codec.decode(ofANewerLayout(new SavedClock.LiveHeader(clock))));
        MonitorClock.Held<Envelope> h = clock.held().iterator().next();
        restored.put(SavedClock.heldKey(h), codec.decode(codec.encode(new SavedClock.HeldRecord(h))));

        List<String> refused = new ArrayList<>();
        MonitorClock<Envelope> after = new MonitorClock<>(10_000, 30_000, 10_000, 300_000, true);
        SavedClock.restore(restored, after, 60_000, (key, time) -> false, (record, key, time) -> refused.add(record.why()));

        assertThat(refused).singleElement().asString().contains("layout " + (SavedClock.LAYOUT + 1));
        assertThat(after.heldCount()).isEqualTo(1);
        assertThat(after.watermark()).isEqualTo(Long.MIN_VALUE);
        assertThat(restored.get(SavedClock.HEADER)).isInstanceOf(SavedClock.LiveHeader.class);
        Journal next = new Journal();
        after.report("health-0", T0 + 5_000, false, 60_000, next);
        assertThat(next.applied).containsExactly("tg-a@1");
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
