package io.hcwatch.topology.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.common.utils.Bytes;
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
 * interface; the version is pinned and the restart integration tests cover the behaviour. How the
 * values lie in that store (whole or in parts) is its {@link StoredLayout}'s business.
 */
public final class WriteBehindStore<V> extends ForwardingStateStore implements ObjectStore<V>, CachedStateStore<Bytes, byte[]> {

    private static final Logger LOG = LoggerFactory.getLogger(WriteBehindStore.class);

    private final StoredLayout<V> stored;
    private final Map<String, V> live = new HashMap<>();
    private final CommitPlan plan = new CommitPlan();
    /**
     * Everything was read but the keys a newer release wrote: the store is not fully loaded (each
     * of those is still read, and refused, on its own), yet scanning again would find nothing new.
     */
    private boolean loadedAllButNewer;

    WriteBehindStore(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        super(inner);
        this.stored = StoredLayout.of(inner, codec);
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
        V value = stored.read(key);
        if (value != null) {
            live.put(key, value);
            plan.loaded(key);
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
        List<NewerLayoutException> refused = new ArrayList<>();
        stored.forEachStored((key, decode) -> {
            plan.loaded(key);
            if (!live.containsKey(key) && !plan.heldInMemory(key)) {
                try {
                    V value = decode.get();
                    if (value != null) {
                        live.put(key, value);
                    }
                } catch (NewerLayoutException e) {
                    refused.add(e);
                }
            }
        });
        if (refused.isEmpty()) {
            plan.allLoaded(true);
        } else {
            loadedAllButNewer = true;
            int newer = refused.size();
            // once per load of the store, not per key: the keys' own refusals are counted where they are read
            LOG.warn("{}: {} key{} written by a newer hcwatch left unread, each refused when read (the first: {});"
                    + " every other key goes on", name(), newer, newer == 1 ? "" : "s", refused.get(0).getMessage());
        }
    }

    /** Writes every changed object to the changelogged store; called by Kafka Streams before it commits. */
    @Override
    public void flushCache() {
        for (String key : plan.commit(live.keySet())) {
            V value = live.get(key);
            stored.write(key, value);
            plan.written(key, value == null);
        }
    }

    /** The changelogged store was written behind our back (restoration into a recycled task). */
    @Override
    public void clearCache() {
        forgetAll();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Bytes, byte[]> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public void close() {
        forgetAll();
        super.close();
    }

    private void forgetAll() {
        live.clear();
        plan.clear();
        stored.clear();
        loadedAllButNewer = false;
    }
}
