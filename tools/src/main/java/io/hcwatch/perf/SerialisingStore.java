package io.hcwatch.perf;

import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.InMemoryOnly;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What a Kafka Streams key-value store with its record cache would cost the processors: the cache
 * holds bytes, and the store's metered layer serialises every put and deserialises every get
 * (and every value an iteration visits). The live objects are kept and used as they are (in a
 * {@link DetachedStore}), so the run is the same as with any other store; only the serde work is
 * added, and counted.
 */
final class SerialisingStore<V> implements ObjectStore<V>, InMemoryOnly {

    private final DetachedStore<V> objects;
    private final StateCodec<V> codec;
    /** What the record cache would hold for each key: its value's bytes as last put. */
    private final Map<String, byte[]> cached = new HashMap<>();
    private final long[] counts;
    /** The last value decoded, kept reachable so the decoding is not optimised away. */
    private Object decoded;

    /** @param counts [0] counts encodes, [1] decodes (shared by every store of a run) */
    SerialisingStore(String name, StateCodec<V> codec, long[] counts) {
        this.objects = new DetachedStore<>(name);
        this.codec = codec;
        this.counts = counts;
    }

    @Override
    public V get(String key) {
        V value = objects.get(key);
        if (value != null) {
            decoded = codec.decode(cached.get(key));
            counts[1]++;
        }
        return value;
    }

    private V encoded(String key, V value) {
        cached.put(key, codec.encode(value));
        counts[0]++;
        return value;
    }

    /** A get, then (once the caller has changed it) the put that stores it back. */
    @Override
    public V getForUpdate(String key, Function<String, V> create) {
        V value = get(key);
        return encoded(key, value != null ? value : objects.getForUpdate(key, create));
    }

    @Override
    public void put(String key, V value) {
        objects.put(key, encoded(key, value));
    }

    /** The put that a changed object needs to reach the store. */
    @Override
    public void markChanged(String key) {
        V value = objects.get(key);
        if (value != null) {
            encoded(key, value);
        }
    }

    @Override
    public void revert(String key) {
    }

    @Override
    public void delete(String key) {
        objects.delete(key);
        cached.remove(key);
    }

    @Override
    public void deleteAfterNextCommit(String key) {
        delete(key);
    }

    /** An iteration deserialises every value it visits. */
    @Override
    public void forEach(BiConsumer<String, V> visitor) {
        for (String key : objects.keys()) {
            visitor.accept(key, get(key));
        }
    }

    @Override
    public List<String> keys() {
        return objects.keys();
    }

    @Override
    public int size() {
        return objects.size();
    }

    /** The cache writes the bytes it holds: nothing is encoded at commit. */
    @Override
    public void flushCache() {
        decoded = null;
    }

    @Override
    public String name() {
        return objects.name();
    }

    @Override
    public void close() {
        objects.close();
        cached.clear();
    }
}
