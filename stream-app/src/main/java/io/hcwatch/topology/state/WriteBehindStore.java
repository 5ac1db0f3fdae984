package io.hcwatch.topology.state;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live detector state kept as plain objects in memory and written to a changelogged key-value
 * store only when Kafka Streams commits.
 *
 * <p>Why: detector state (registries, latency histograms, heavy-hitter sketches) and an ingest's
 * pending summaries change on almost every record; encoding them on every record would cost more
 * than the detection itself. Kafka Streams' own record cache holds values as bytes (its metered
 * layer serialises on every put and deserialises on every get), so it pays exactly that cost
 * (README, Benchmarks: {@code bench stores}). Kafka Streams calls {@link #flushCache()} on every
 * {@link CachedStateStore} right before it flushes the producer and commits offsets (on the commit
 * interval, on rebalance and on clean close), which is exactly when the changelog must catch up
 * with the offsets; the public {@code StateStore.commit} comes after the offsets are committed,
 * too late. So the store is as durable as a cached DSL store: after a crash the task restarts from
 * the last commit with the state of that commit. {@code CachedStateStore} is a Kafka-internal
 * interface; the version is pinned and the restart integration tests cover the behaviour.
 */
public final class WriteBehindStore<V> implements ObjectStore<V>, CachedStateStore<Bytes, byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(WriteBehindStore.class);

    private final KeyValueStore<Bytes, byte[]> inner;
    private final StateCodec<V> codec;
    /** The codec when it stores values in parts, each written only when it changed; null when values are stored whole. */
    private final PartedCodec<V> parted;
    private final StoredParts parts = new StoredParts();
    private final Map<String, V> live = new HashMap<>();
    private final CommitPlan plan = new CommitPlan();
    /**
     * Everything was read but the keys a newer release wrote: the store is not fully loaded (each
     * of those is still read, and refused, on its own), yet scanning again would find nothing new.
     */
    private boolean loadedAllButNewer;

    WriteBehindStore(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        this.inner = inner;
        this.codec = codec;
        this.parted = codec instanceof PartedCodec<V> p ? p : null;
    }

    /** A store written behind to {@code inner}, which it reads on first access to each key. */
    public static <V> WriteBehindStore<V> over(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        return new WriteBehindStore<>(inner, codec);
    }

    /** The value for {@code key}, read from the changelogged store on first access. */
    @Override
    public V get(String key) {
        V value = live.get(key);
        if (value == null && !plan.allLoaded() && !plan.awaitsTombstone(key)) {
            value = read(key);
        }
        return value;
    }

    private V read(String key) {
        byte[] bytes = inner.get(bytes(key));
        V value;
        if (parted == null) {
            if (bytes == null) {
                return null;
            }
            value = codec.decode(bytes);
        } else {
            Map<String, byte[]> stored = storedParts(key);
            if (bytes != null) {
                stored.put(StoredParts.WHOLE, bytes);
            }
            if (stored.isEmpty()) {
                return null;
            }
            value = decode(key, stored);
            if (value == null) {
                return null;
            }
        }
        live.put(key, value);
        plan.loaded(key);
        return value;
    }

    /** What the changelogged store holds of {@code key} in parts (not the key itself). */
    private Map<String, byte[]> storedParts(String key) {
        Map<String, byte[]> stored = new HashMap<>();
        Bytes[] range = StoredParts.partRange(key);
        try (KeyValueIterator<Bytes, byte[]> it = inner.range(range[0], range[1])) {
            while (it.hasNext()) {
                var entry = it.next();
                stored.put(StoredParts.split(entry.key.get())[1], entry.value);
            }
        }
        return stored;
    }

    /** A value from what the changelogged store holds of it (null when that is no value), its parts remembered. */
    private V decode(String key, Map<String, byte[]> stored) {
        V value = parted.decodeParts(stored);
        if (value != null) {
            parts.held(key, stored);
        }
        return value;
    }

    @Override
    public V getForUpdate(String key, Function<String, V> create) {
        V value = get(key);
        if (value == null) {
            value = create.apply(key);
            live.put(key, value);
        }
        plan.changed(key);
        return value;
    }

    @Override
    public void put(String key, V value) {
        live.put(key, value);
        plan.changed(key);
    }

    @Override
    public void markChanged(String key) {
        if (!plan.isLastChanged(key) && live.containsKey(key)) {
            plan.changed(key);
        }
    }

    /** The object is read again from the changelogged store (gone if it was never committed). */
    @Override
    public void revert(String key) {
        live.remove(key);
        plan.forget(key);
        read(key);
    }

    @Override
    public void delete(String key) {
        live.remove(key);
        plan.deleted(key);
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
    @Override
    public void deleteAfterNextCommit(String key) {
        live.remove(key);
        plan.deletedAfterNextCommit(key);
    }

    /** Visits every key and value, loading whatever was restored from the changelog first. */
    @Override
    public void forEach(BiConsumer<String, V> visitor) {
        loadAll();
        for (Map.Entry<String, V> e : new ArrayList<>(live.entrySet())) {
            visitor.accept(e.getKey(), e.getValue());
        }
    }

    @Override
    public List<String> keys() {
        loadAll();
        return new ArrayList<>(live.keySet());
    }

    @Override
    public int size() {
        loadAll();
        return live.size();
    }

    /**
     * Reads every stored key into memory. A value a newer release wrote ({@link NewerLayoutException})
     * is left unread, so one key of a newer layout does not fail every step of the store: the store
     * then stays not fully loaded, and that key is refused again each time it is read, by itself.
     */
    private void loadAll() {
        if (plan.allLoaded() || loadedAllButNewer) {
            return;
        }
        int newer = 0;
        NewerLayoutException first = null;
        Map<String, Map<String, byte[]>> partsByKey = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                var entry = it.next();
                String key;
                if (parted == null) {
                    key = new String(entry.key.get(), StandardCharsets.UTF_8);
                } else {
                    String[] keyAndPart = StoredParts.split(entry.key.get());
                    key = keyAndPart[0];
                    partsByKey.computeIfAbsent(key, k -> new HashMap<>()).put(keyAndPart[1], entry.value);
                    continue;
                }
                plan.loaded(key);
                if (!live.containsKey(key) && !plan.heldInMemory(key)) {
                    try {
                        live.put(key, codec.decode(entry.value));
                    } catch (NewerLayoutException e) {
                        newer++;
                        first = first == null ? e : first;
                    }
                }
            }
        }
        for (Map.Entry<String, Map<String, byte[]>> e : partsByKey.entrySet()) {
            String key = e.getKey();
            plan.loaded(key);
            if (!live.containsKey(key) && !plan.heldInMemory(key)) {
                try {
                    V value = decode(key, e.getValue());
                    if (value != null) {
                        live.put(key, value);
                    }
                } catch (NewerLayoutException refused) {
                    newer++;
                    first = first == null ? refused : first;
                }
            }
        }
        if (newer == 0) {
            plan.allLoaded(true);
        } else {
            loadedAllButNewer = true;
            // once per load of the store, not per key: the keys' own refusals are counted where they are read
            LOG.warn("{}: {} key{} written by a newer hcwatch left unread, each refused when read (the first: {});"
                    + " every other key goes on", name(), newer, newer == 1 ? "" : "s", first.getMessage());
        }
    }

    /** Writes every changed object to the changelogged store; called by Kafka Streams before it commits. */
    @Override
    public void flushCache() {
        for (String key : plan.commit(live.keySet())) {
            V value = live.get(key);
            if (parted != null) {
                writeParts(key, value);
            } else if (value == null) {
                inner.delete(bytes(key));
            } else {
                inner.put(bytes(key), codec.encode(value));
            }
            plan.written(key, value == null);
        }
    }

    /** The parts of {@code key} that changed are written, those it no longer has deleted; all of them when it was deleted. */
    private void writeParts(String key, V value) {
        StoredParts.Writer out = new StoredParts.Writer() {
            @Override
            public void put(Bytes k, byte[] v) {
                inner.put(k, v);
            }

            @Override
            public void delete(Bytes k) {
                inner.delete(k);
            }
        };
        if (value != null) {
            if (!parts.knows(key)) {
                // parts stored by an earlier run that this one never read (the key was replaced unread): delete what the new value lacks
                Map<String, byte[]> stored = storedParts(key);
                byte[] whole = inner.get(bytes(key));
                if (whole != null) {
                    stored.put(StoredParts.WHOLE, whole);
                }
                if (!stored.isEmpty()) {
                    parts.held(key, stored);
                }
            }
            parts.write(key, parted.encodeParts(value), out);
            return;
        }
        List<String> known = parts.forget(key);
        if (known.isEmpty()) {
            storedParts(key).keySet().forEach(part -> inner.delete(StoredParts.partKey(key, part)));
            inner.delete(bytes(key));
        } else {
            known.forEach(part -> inner.delete(StoredParts.partKey(key, part)));
        }
    }

    private static Bytes bytes(String key) {
        return Bytes.wrap(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The changelogged store was written behind our back (restoration into a recycled task). */
    @Override
    public void clearCache() {
        live.clear();
        plan.clear();
        parts.clear();
        loadedAllButNewer = false;
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return inner.name();
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
        plan.clear();
        parts.clear();
        loadedAllButNewer = false;
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
