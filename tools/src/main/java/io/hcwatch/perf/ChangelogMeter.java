package io.hcwatch.perf;

import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.state.InMemoryOnly;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.WriteBehindStore;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Stands for a changelogged key-value store under the live topology's {@link WriteBehindStore}:
 * reports the bytes each write would put in the changelog (key and value; a tombstone is its key)
 * and, when asked to, keeps what the changelog would hold once compacted (the latest value of
 * each key), so that a benchmark can restore a store from it. So a replayed workload measures what
 * the live monitors' changelogs take, through the live store's own commit logic.
 */
final class ChangelogMeter implements KeyValueStore<Bytes, byte[]>, InMemoryOnly {

    private final String name;
    /** Told each write: its key and value, the value null for a tombstone. */
    private final BiConsumer<Bytes, byte[]> written;
    /** The compacted changelog, sorted by key as Kafka's in-memory store keeps it; null when nothing is kept. */
    private final NavigableMap<Bytes, byte[]> compacted;

    ChangelogMeter(String name, BiConsumer<Bytes, byte[]> written, boolean keep) {
        this.name = name;
        this.written = written;
        this.compacted = keep ? new TreeMap<>() : null;
    }

    /** Replay stores that are all written behind, as live, each write reported to {@code written} with its bytes; nothing kept. */
    static ReplayStores all(LongConsumer written) {
        return new ReplayStores() {
            @Override
            public <V> ObjectStore<V> store(String name, StateCodec<V> codec) {
                WriteBehindStore<V> store = WriteBehindStore.over(new ChangelogMeter(name,
                        (key, value) -> written.accept(bytes(key, value)), false), codec);
                // an empty changelog, read: a key written and deleted between two commits costs nothing, as live
                store.size();
                return store;
            }
        };
    }

    /** The bytes a write puts in the changelog: its key and value (a tombstone is its key). */
    static long bytes(Bytes key, byte[] value) {
        return (long) key.get().length + (value == null ? 0 : value.length);
    }

    /** The compacted changelog's entries, in key order (null when nothing is kept). */
    NavigableMap<Bytes, byte[]> compacted() {
        return compacted;
    }

    @Override
    public void put(Bytes key, byte[] value) {
        if (value == null) {
            delete(key);
            return;
        }
        written.accept(key, value);
        if (compacted != null) {
            compacted.put(key, value);
        }
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        byte[] old = get(key);
        if (old == null) {
            put(key, value);
        }
        return old;
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        entries.forEach(e -> put(e.key, e.value));
    }

    @Override
    public byte[] delete(Bytes key) {
        written.accept(key, null);
        return compacted == null ? null : compacted.remove(key);
    }

    @Override
    public byte[] get(Bytes key) {
        return compacted == null ? null : compacted.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return compacted == null ? iterator(Map.<Bytes, byte[]>of().entrySet().iterator())
                : iterator(compacted.subMap(from, true, to, true).entrySet().iterator());
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return compacted == null ? iterator(Map.<Bytes, byte[]>of().entrySet().iterator())
                : iterator(compacted.entrySet().iterator());
    }

    private static KeyValueIterator<Bytes, byte[]> iterator(Iterator<Map.Entry<Bytes, byte[]>> entries) {
        return new KeyValueIterator<>() {
            @Override
            public void close() {
            }

            @Override
            public Bytes peekNextKey() {
                throw new UnsupportedOperationException("not used by the stores it stands under");
            }

            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public KeyValue<Bytes, byte[]> next() {
                Map.Entry<Bytes, byte[]> e = entries.next();
                return KeyValue.pair(e.getKey(), e.getValue());
            }
        };
    }

    @Override
    public long approximateNumEntries() {
        return compacted == null ? 0 : compacted.size();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
    }
}
