package io.hcwatch.perf;

import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.InMemoryOnly;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.WriteBehindStore;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Stands for a changelogged key-value store under the live topology's {@link WriteBehindStore}:
 * keeps nothing, and reports the bytes each write would put in the changelog (key and value; a
 * tombstone is its key). So a replayed workload measures what the live monitors' changelogs take,
 * through the live store's own commit logic.
 */
final class ChangelogMeter implements KeyValueStore<Bytes, byte[]>, InMemoryOnly {

    private static final Set<String> MONITOR_STORES = Set.of(TopologyFactory.FLEET_STORE, TopologyFactory.HOST_STORE,
            TopologyFactory.FLOOD_STORE, TopologyFactory.FEED_STORE);

    private final String name;
    private final LongConsumer written;

    private ChangelogMeter(String name, LongConsumer written) {
        this.name = name;
        this.written = written;
    }

    /** Replay stores whose monitor stores (not their clocks, not the pending stores) report their changelog bytes to {@code written}. */
    static ReplayStores monitors(LongConsumer written) {
        return writtenBehind(MONITOR_STORES::contains, written);
    }

    /** Replay stores that are all written behind, as live, each write reported to {@code written} with its bytes. */
    static ReplayStores all(LongConsumer written) {
        return writtenBehind(name -> true, written);
    }

    private static ReplayStores writtenBehind(Predicate<String> measured, LongConsumer written) {
        return new ReplayStores() {
            @Override
            public <V> ObjectStore<V> store(String name, StateCodec<V> codec) {
                if (!measured.test(name)) {
                    return new DetachedStore<>(name);
                }
                WriteBehindStore<V> store = WriteBehindStore.over(new ChangelogMeter(name, written), codec);
                // an empty changelog, read: a key written and deleted between two commits costs nothing, as live
                store.size();
                return store;
            }
        };
    }

    @Override
    public void put(Bytes key, byte[] value) {
        written.accept(key.get().length + (value == null ? 0 : value.length));
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        put(key, value);
        return null;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        entries.forEach(e -> put(e.key, e.value));
    }

    @Override
    public byte[] delete(Bytes key) {
        written.accept(key.get().length);
        return null;
    }

    @Override
    public byte[] get(Bytes key) {
        return null;
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return empty();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return empty();
    }

    private static KeyValueIterator<Bytes, byte[]> empty() {
        return new KeyValueIterator<>() {
            @Override
            public void close() {
            }

            @Override
            public Bytes peekNextKey() {
                throw new java.util.NoSuchElementException();
            }

            @Override
            public boolean hasNext() {
                return false;
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                throw new java.util.NoSuchElementException();
            }
        };
    }

    @Override
    public long approximateNumEntries() {
        return 0;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
    }
}
