package io.hcwatch.topology.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A store with no changelog behind it, for offline replay: the objects in memory are the whole
 * state, a run starts empty, and a commit writes nothing. It keeps no set of changed keys (that
 * would hold every key of a replay), and a failed update cannot be undone: there is no committed
 * copy to go back to, so the object stays as the update left it.
 */
public final class DetachedStore<V> implements ObjectStore<V>, InMemoryOnly {

    private final String name;
    private final Map<String, V> live = new HashMap<>();

    public DetachedStore(String name) {
        this.name = name;
    }

    @Override
    public V get(String key) {
        return live.get(key);
    }

    @Override
    public V getForUpdate(String key, Function<String, V> create) {
        return live.computeIfAbsent(key, create);
    }

    @Override
    public void put(String key, V value) {
        live.put(key, value);
    }

    @Override
    public void markChanged(String key) {
    }

    @Override
    public void revert(String key) {
    }

    @Override
    public void delete(String key) {
        live.remove(key);
    }

    @Override
    public void deleteAfterNextCommit(String key) {
        live.remove(key);
    }

    @Override
    public void forEach(BiConsumer<String, V> visitor) {
        for (Map.Entry<String, V> e : new ArrayList<>(live.entrySet())) {
            visitor.accept(e.getKey(), e.getValue());
        }
    }

    @Override
    public List<String> keys() {
        return new ArrayList<>(live.keySet());
    }

    @Override
    public int size() {
        return live.size();
    }

    @Override
    public void flushCache() {
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        live.clear();
    }
}
