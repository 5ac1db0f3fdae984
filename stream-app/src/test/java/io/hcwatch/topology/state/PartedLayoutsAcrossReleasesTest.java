package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.alert.Monitored;
import io.hcwatch.topology.TopologyFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Keys stored in parts across releases, each kind of store: what layout 2 stored (parts without
 * their frame, golden files in src/test/resources/state/v2) is read to the same value as the
 * layout-1 golden file it was made from and then stored in layout 3; and a release of layout 1
 * (which reads a store as this store does over its whole codec) refuses every key stored in parts,
 * each part as a newer layout, and never starts such a key fresh.
 */
class PartedLayoutsAcrossReleasesTest {

    record Kind(String key, String file, PartedMonitoredCodec<?> parted, MonitoredCodec<?> whole) {

        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Arguments> kinds() {
        return Stream.of(
                new Kind("prod-web-tg", "fleet-prod-web-tg", TopologyFactory.fleetStoreCodec(), TopologyFactory.fleetCodec()),
                new Kind("haproxy/www", "flood-haproxy-www", TopologyFactory.floodStoreCodec(), TopologyFactory.floodCodec()),
                new Kind("lb1", "host-lb1", TopologyFactory.hostStoreCodec(), TopologyFactory.hostCodec()))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    <S> void aKeyStoredInPartsByLayoutTwoIsReadThenStoredFramed(Kind kind) {
        @SuppressWarnings("unchecked") PartedMonitoredCodec<S> parted = (PartedMonitoredCodec<S>) kind.parted();
        @SuppressWarnings("unchecked") MonitoredCodec<S> whole = (MonitoredCodec<S>) kind.whole();
        byte[] v1 = PartedMonitoredCodecTest.golden(kind.file() + ".json");
        SortedBytesStore changelog = new SortedBytesStore();
        int partsOfLayoutTwo = layoutTwo(kind, changelog);
        WriteBehindStore<Monitored<S>> store = WriteBehindStore.over(changelog.store(), parted);

        assertThat(whole.encode(store.getForUpdate(kind.key(), k -> null))).isEqualTo(v1);
        store.flushCache();

        assertThat(changelog.get(kind.key())).isEqualTo(PartedMonitoredCodec.FRAME);
        assertThat(changelog.entries).hasSize(partsOfLayoutTwo + 1).allSatisfy((k, bytes) -> assertThat(
                new String(bytes, 0, PartedMonitoredCodec.FRAME.length, StandardCharsets.UTF_8)).startsWith("{\"v\":3"));
        assertThat(whole.encode(WriteBehindStore.over(changelog.store(), parted).get(kind.key()))).isEqualTo(v1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    <S> void aReleaseOfLayoutOneRefusesEveryKeyStoredInPartsAndStartsNoneFresh(Kind kind) {
        @SuppressWarnings("unchecked") PartedMonitoredCodec<S> parted = (PartedMonitoredCodec<S>) kind.parted();
        @SuppressWarnings("unchecked") MonitoredCodec<S> whole = (MonitoredCodec<S>) kind.whole();
        SortedBytesStore changelog = new SortedBytesStore();
        WriteBehindStore<Monitored<S>> store = WriteBehindStore.over(changelog.store(), parted);
        store.put(kind.key(), whole.decode(PartedMonitoredCodecTest.golden(kind.file() + ".json")));
        store.put("other", whole.decode(PartedMonitoredCodecTest.golden(kind.file() + ".json")));
        store.flushCache();
        changelog.put("stored-whole", PartedMonitoredCodecTest.golden(kind.file() + ".json"));

        WriteBehindStore<Monitored<S>> previousRelease = WriteBehindStore.over(changelog.store(), whole);

        assertThat(previousRelease.keys()).as("every part refused alone, the key stored whole read").containsExactly("stored-whole");
        assertThatThrownBy(() -> previousRelease.get(kind.key())).isInstanceOf(NewerLayoutException.class)
                .hasMessageContaining("layout 3 was written by a newer hcwatch");
        for (var entry : changelog.entries.entrySet()) {
            if (!SortedBytesStore.text(entry.getKey()).equals("stored-whole")) {
                assertThatThrownBy(() -> whole.decode(entry.getValue())).as(SortedBytesStore.text(entry.getKey()))
                        .isInstanceOf(NewerLayoutException.class);
            }
        }
    }

    /** The golden file of layout 2 put in {@code changelog} under the kind's key; how many parts it has. */
    private static int layoutTwo(Kind kind, SortedBytesStore changelog) {
        try (InputStream in = PartedLayoutsAcrossReleasesTest.class.getResourceAsStream("/state/v2/" + kind.file() + ".parts")) {
            if (in == null) {
                throw new IllegalStateException("missing golden file " + kind.file() + ".parts");
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String line : lines) {
                String[] partAndHex = line.split(" ", 2);
                changelog.put(kind.key() + "\0" + partAndHex[0], HexFormat.of().parseHex(partAndHex[1]));
            }
            return lines.length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
