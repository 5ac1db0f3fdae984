package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetDetection;
import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.topology.TopologyFactory;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * What a write-behind store writes to its changelogged store at each commit: every key changed
 * since the previous one, however often or in what order it was marked, and tombstones when due.
 */
class WriteBehindStoreTest {

    /** Every write that reaches the changelogged store, as "put k=v" or "delete k", per commit. */
    private final List<String> writes = new ArrayList<>();
    private final Map<String, byte[]> changelog = new TreeMap<>();
    private final WriteBehindStore<String> store = new WriteBehindStore<>(recordingStore(), new StateCodec<>() {
        @Override
        public byte[] encode(String value) {
            return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    });

    @Test
    void aDeletionWhoseReplacementMustBeDurableFirstWritesItsTombstoneOneCommitLate() {
        store.keys();
        store.put("held/1", "r1");
        store.put("tg", "state-0");
        commit();
        assertThat(writes).containsExactlyInAnyOrder("put held/1=r1", "put tg=state-0");

        // the held record reaches its key: the key's new state goes out with this commit, the tombstone with the next
        store.deleteAfterNextCommit("held/1");
        store.put("tg", "state-1");
        commit();
        assertThat(writes).containsExactly("put tg=state-1");
        assertThat(store.get("held/1")).isNull();
        commit();
        assertThat(writes).containsExactly("delete held/1");
        commit();
        assertThat(writes).isEmpty();
    }

    @Test
    void aValueWrittenAndDeletedBetweenTwoCommitsNeverReachesTheChangelog() {
        store.keys();
        store.put("held/2", "r2");
        store.deleteAfterNextCommit("held/2");
        commit();
        commit();
        assertThat(writes).isEmpty();
    }

    @Test
    void aRestoredValueAwaitingItsTombstoneIsNotReadBackFromTheChangelog() {
        changelog.put("held/3", "r3".getBytes(StandardCharsets.UTF_8));
        store.deleteAfterNextCommit("held/3");
        assertThat(store.get("held/3")).isNull();
        assertThat(store.keys()).isEmpty();
        commit();
        commit();
        assertThat(writes).containsExactly("delete held/3");
    }

    @Test
    void aKeyMarkedAgainAfterACommitIsWrittenAgain() {
        store.keys();
        store.put("clock", "abc");
        store.markChanged("clock");
        store.markChanged("clock");
        commit();
        assertThat(writes).containsExactly("put clock=abc");
        store.markChanged("clock");
        commit();
        assertThat(writes).containsExactly("put clock=abc");
        commit();
        assertThat(writes).isEmpty();
    }

    @Test
    void aKeyMarkedLastThenDeletedAndPutAgainIsWritten() {
        store.keys();
        store.put("held/1", "x");
        commit();
        store.put("pending", "p");
        store.markChanged("pending");
        store.delete("pending");
        // written and deleted between two commits: nothing to write
        commit();
        assertThat(writes).isEmpty();
        store.put("pending", "q");
        store.markChanged("pending");
        commit();
        assertThat(writes).containsExactly("put pending=q");
    }

    @Test
    void aKeyMarkedLastThenDeletedAfterTheNextCommitAndPutAgainIsWritten() {
        store.keys();
        store.put("held/1", "x");
        store.deleteAfterNextCommit("held/1");
        store.put("held/1", "y");
        store.markChanged("held/1");
        commit();
        assertThat(writes).containsExactly("put held/1=y");
    }

    @Test
    void everyKeyMarkedBetweenTwoCommitsIsWrittenOnce() {
        store.keys();
        store.put("a", "1");
        store.put("b", "2");
        commit();
        store.markChanged("a");
        store.markChanged("b");
        store.markChanged("a");
        store.markChanged("b");
        commit();
        assertThat(writes).containsExactlyInAnyOrder("put a=1", "put b=2");
    }

    /**
     * After a rollback the store holds a key a newer release wrote: every other key is visited,
     * listed and read as before, and that key alone is refused, each time it is read, and left as
     * stored (neither dropped nor reset), so that the newer release reads it again.
     */
    @Test
    void aKeyOfANewerLayoutIsRefusedAloneWhileEveryOtherKeyIsVisited() {
        MonitoredCodec<FleetState> codec = TopologyFactory.fleetCodec();
        Monitored<FleetState> known = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()), Settings.defaults())
                .newKey("tg-a", null);
        byte[] newer = "{\"v\":99,\"time\":{},\"state\":{},\"alerts\":{}}".getBytes(StandardCharsets.UTF_8);
        changelog.put("tg-a", codec.encode(known));
        changelog.put("tg-newer", newer);
        changelog.put("tg-z", codec.encode(known));
        WriteBehindStore<Monitored<FleetState>> states = WriteBehindStore.over(recordingStore(), codec);

        for (int step = 0; step < 2; step++) {
            List<String> visited = new ArrayList<>();
            states.forEach((key, m) -> visited.add(key));
            assertThat(visited).containsExactlyInAnyOrder("tg-a", "tg-z");
            assertThat(states.keys()).containsExactlyInAnyOrder("tg-a", "tg-z");
            assertThat(states.size()).isEqualTo(2);
            assertThatThrownBy(() -> states.get("tg-newer")).isInstanceOf(NewerLayoutException.class)
                    .hasMessageContaining("layout 99");
            assertThatThrownBy(() -> states.getForUpdate("tg-newer", key -> known)).isInstanceOf(NewerLayoutException.class);
        }
        assertThat(states.get("tg-new")).as("a key never stored").isNull();
        states.getForUpdate("tg-new", key -> known);
        states.flushCache();
        assertThat(writes).singleElement().asString().startsWith("put tg-new=");
        assertThat(changelog.get("tg-newer")).isEqualTo(newer);
    }

    /** A tombstone is written for a key deleted while a key of a newer layout keeps the store from being fully read. */
    @Test
    void aKeyDeletedBesideAKeyOfANewerLayoutGetsItsTombstone() {
        MonitoredCodec<FleetState> codec = TopologyFactory.fleetCodec();
        Monitored<FleetState> known = new MonitorHarness<>(new FleetDetection(FleetSettings.defaults()), Settings.defaults())
                .newKey("tg-a", null);
        changelog.put("tg-a", codec.encode(known));
        changelog.put("tg-newer", "{\"v\":99}".getBytes(StandardCharsets.UTF_8));
        WriteBehindStore<Monitored<FleetState>> states = WriteBehindStore.over(recordingStore(), codec);
        states.forEach((key, m) -> states.delete(key));
        states.flushCache();
        assertThat(writes).containsExactly("delete tg-a");
        assertThat(changelog).containsOnlyKeys("tg-newer");
    }

    private void commit() {
        writes.clear();
        store.flushCache();
    }

    @SuppressWarnings("unchecked")
    private KeyValueStore<Bytes, byte[]> recordingStore() {
        return (KeyValueStore<Bytes, byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "put" -> {
                            String key = new String(((Bytes) args[0]).get(), StandardCharsets.UTF_8);
                            writes.add("put " + key + "=" + new String((byte[]) args[1], StandardCharsets.UTF_8));
                            changelog.put(key, (byte[]) args[1]);
                            return null;
                        }
                        case "delete" -> {
                            String key = new String(((Bytes) args[0]).get(), StandardCharsets.UTF_8);
                            writes.add("delete " + key);
                            return changelog.remove(key);
                        }
                        case "get" -> {
                            return changelog.get(new String(((Bytes) args[0]).get(), StandardCharsets.UTF_8));
                        }
                        case "all" -> {
                            return iterator(new ArrayList<>(changelog.entrySet()));
                        }
                        case "name" -> {
                            return "recording";
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private static org.apache.kafka.streams.state.KeyValueIterator<Bytes, byte[]> iterator(List<Map.Entry<String, byte[]>> entries) {
        var it = entries.iterator();
        return (org.apache.kafka.streams.state.KeyValueIterator<Bytes, byte[]>) Proxy.newProxyInstance(
                WriteBehindStoreTest.class.getClassLoader(), new Class<?>[] {org.apache.kafka.streams.state.KeyValueIterator.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "hasNext" -> it.hasNext();
                    case "next" -> {
                        Map.Entry<String, byte[]> e = it.next();
                        yield org.apache.kafka.streams.KeyValue.pair(Bytes.wrap(e.getKey().getBytes(StandardCharsets.UTF_8)), e.getValue());
                    }
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
