package io.hcwatch.topology.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * Live detector state kept as plain objects in memory and written to a changelogged key-value
 * store only when Kafka Streams commits.
 *
 * <p>Why: detector state (registries, latency histograms, heavy-hitter sketches) changes on
 * almost every record; encoding it on every record would cost more than the detection itself.
 * Kafka Streams calls {@link #flushCache()} on every {@link CachedStateStore} right before it
 * flushes the producer and commits offsets (on the commit interval, on rebalance and on clean
 * close), which is exactly when the changelog must catch up with the offsets. So the store
 * is as durable as a cached DSL store: after a crash the task restarts from the last commit with
 * the state of that commit. {@code CachedStateStore} is a Kafka-internal interface; the version
 * is pinned and the restart integration tests cover the behaviour.
 */
public final class WriteBehindStore<V> implements StateStore, CachedStateStore<Bytes, byte[]> {

    private final KeyValueStore<Bytes, byte[]> inner;
    private final StateCodec<V> codec;
    private final Map<String, V> live = new HashMap<>();
    private final Set<String> dirty = new HashSet<>();
    /** The key last added to {@link #dirty} (same instance), while it is there. */
    private String lastDirty;
    /** Keys the changelogged store holds (complete once everything is loaded): deleting another needs no tombstone. */
    private final Set<String> stored = new HashSet<>();
    /** Keys deleted since the last commit whose tombstones wait for the commit after it ({@link #deleteAfterNextCommit}). */
    private Set<String> retiring = new HashSet<>();
    /** Tombstones the next commit writes: the commit after their deletion has made durable what replaced them. */
    private Set<String> retired = new HashSet<>();
    private boolean allLoaded;
    /** Told the bytes of every value (or tombstone) a commit would write to the changelog; replay measurements only. */
    private java.util.function.LongConsumer written;

    WriteBehindStore(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        this.inner = inner;
        this.codec = codec;
    }

    /**
     * A store with no changelog behind it, for offline replay: the objects in memory are the
     * whole state, and a run starts empty.
     */
    public static <V> WriteBehindStore<V> detached() {
        WriteBehindStore<V> store = new WriteBehindStore<>(null, null);
        store.allLoaded = true;
        return store;
    }

    /**
     * As {@link #detached()}, but each commit ({@link #flushCache()}) encodes what changed and
     * reports the bytes the changelog would take (key and value; a tombstone is its key): the
     * changelog traffic of a replayed workload.
     */
    public static <V> WriteBehindStore<V> measuring(StateCodec<V> codec, java.util.function.LongConsumer written) {
        WriteBehindStore<V> store = new WriteBehindStore<>(null, codec);
        store.allLoaded = true;
        store.written = written;
        return store;
    }

    /** The value for {@code key}, read from the changelogged store on first access. */
    public V get(String key) {
        V value = live.get(key);
        if (value == null && !allLoaded && !retiring.contains(key) && !retired.contains(key)) {
            byte[] bytes = inner.get(Bytes.wrap(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            if (bytes != null) {
                value = codec.decode(bytes);
                live.put(key, value);
                stored.add(key);
            }
        }
        return value;
    }

    /** The value for {@code key}, created with {@code create} when absent, and marked changed. */
    public V getForUpdate(String key, Function<String, V> create) {
        V value = get(key);
        if (value == null) {
            value = create.apply(key);
            live.put(key, value);
        }
        markDirty(key);
        return value;
    }

    public void put(String key, V value) {
        live.put(key, value);
        markDirty(key);
    }

    /** Records that the object held for {@code key} was changed in place. */
    public void markChanged(String key) {
        if (key != lastDirty && live.containsKey(key)) {
            markDirty(key);
        }
    }

    /**
     * A detached store writes nothing at commit: it keeps no set of changed keys, which would hold every key of a replay.
     * The key marked last is not looked up again: the ingest marks its one pending entry, and a monitor its clock,
     * on every record.
     */
    private void markDirty(String key) {
        if ((inner != null || written != null) && key != lastDirty) {
            dirty.add(key);
            lastDirty = key;
        }
    }

    /**
     * Forgets what was done to {@code key} since the last commit, when an update failed half-way: the
     * object is read again from the changelogged store (gone if it was never committed). A detached
     * store keeps no copy: its object stays as the failed update left it.
     */
    public void revert(String key) {
        if (inner == null) {
            return;
        }
        live.remove(key);
        dirty.remove(key);
        lastDirty = null;
        byte[] bytes = inner.get(Bytes.wrap(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        if (bytes != null) {
            live.put(key, codec.decode(bytes));
            stored.add(key);
        }
    }

    public void delete(String key) {
        live.remove(key);
        if (allLoaded && !stored.contains(key)) {
            // written and deleted between two commits: the changelog never saw it
            dirty.remove(key);
            lastDirty = null;
        } else {
            dirty.add(key);
        }
    }

    /**
     * Deletes {@code key}, but writes its tombstone only at the commit after the next one. For a
     * value whose deletion says "what it held now lives in another store" (a record the monitor
     * clock held, now applied to its key): at at-least-once, a crash in the middle of a commit can
     * leave one store's changelog records written and another's not, and a tombstone that lands
     * without the state that replaced it loses that state for good. One commit later, everything the
     * previous commit wrote has been acknowledged; a restart in between finds the value still there
     * and must tell itself whether it was already used (see {@code SavedClock#restore}).
     */
    public void deleteAfterNextCommit(String key) {
        live.remove(key);
        dirty.remove(key);
        lastDirty = null;
        if ((inner != null || written != null) && !(allLoaded && !stored.contains(key))) {
            retiring.add(key);
        }
    }

    /** Visits every key and value, loading whatever was restored from the changelog first. */
    public void forEach(BiConsumer<String, V> visitor) {
        loadAll();
        for (Map.Entry<String, V> e : new ArrayList<>(live.entrySet())) {
            visitor.accept(e.getKey(), e.getValue());
        }
    }

    public List<String> keys() {
        loadAll();
        return new ArrayList<>(live.keySet());
    }

    public int size() {
        loadAll();
        return live.size();
    }

    private void loadAll() {
        if (allLoaded) {
            return;
        }
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                var entry = it.next();
                String key = new String(entry.key.get(), java.nio.charset.StandardCharsets.UTF_8);
                stored.add(key);
                if (!live.containsKey(key) && !dirty.contains(key) && !retiring.contains(key) && !retired.contains(key)) {
                    live.put(key, codec.decode(entry.value));
                }
            }
        }
        allLoaded = true;
    }

    /** Writes every changed object to the changelogged store; called by Kafka Streams before it commits. */
    @Override
    public void flushCache() {
        for (String key : retired) {
            if (!live.containsKey(key) && !dirty.contains(key)) {
                dirty.add(key);
            }
        }
        retired = retiring;
        retiring = new HashSet<>();
        if (inner == null) {
            if (written != null) {
                for (String key : dirty) {
                    V value = live.get(key);
                    int k = key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                    written.accept(value == null ? k : k + codec.encode(value).length);
                    if (value == null) {
                        stored.remove(key);
                    } else {
                        stored.add(key);
                    }
                }
            }
            dirty.clear();
            lastDirty = null;
            return;
        }
        if (dirty.isEmpty()) {
            return;
        }
        for (String key : dirty) {
            Bytes k = Bytes.wrap(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            V value = live.get(key);
            if (value == null) {
                inner.delete(k);
                stored.remove(key);
            } else {
                inner.put(k, codec.encode(value));
                stored.add(key);
            }
        }
        dirty.clear();
        lastDirty = null;
    }

    /** The changelogged store was written behind our back (restoration into a recycled task). */
    @Override
    public void clearCache() {
        live.clear();
        dirty.clear();
        lastDirty = null;
        stored.clear();
        retiring.clear();
        retired.clear();
        allLoaded = false;
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return inner == null ? "detached" : inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        inner.init(context, root);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
        inner.flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        inner.commit(changelogOffsets);
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        return inner.committedOffset(partition);
    }

    @Override
    public boolean managesOffsets() {
        return inner.managesOffsets();
    }

    @Override
    public void close() {
        live.clear();
        dirty.clear();
        lastDirty = null;
        stored.clear();
        retiring.clear();
        retired.clear();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }

    @Override
    public Position getPosition() {
        return inner.getPosition();
    }
}
