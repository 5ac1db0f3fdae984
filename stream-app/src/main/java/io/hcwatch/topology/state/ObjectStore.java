package io.hcwatch.topology.state;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;

/**
 * A processor's state as live objects per key, changed in place between commits. The live
 * topology keeps them written behind to a changelogged store ({@link WriteBehindStore}); replay
 * keeps them in memory only ({@link DetachedStore}). Processors reach it through
 * {@code context.getStateStore(name)} either way, so it is a {@link StateStore}.
 */
public interface ObjectStore<V> extends StateStore {

    /** The value for {@code key}, or null. */
    V get(String key);

    /** The value for {@code key}, created with {@code create} when absent, and marked changed. */
    V getForUpdate(String key, Function<String, V> create);

    void put(String key, V value);

    /** The object held for {@code key} was changed in place. */
    void markChanged(String key);

    /** Forgets what was done to {@code key} since the last commit, when an update failed half-way (as far as the store can). */
    void revert(String key);

    void delete(String key);

    /**
     * Deletes {@code key}, but lets its deletion become durable only a commit after the next one
     * (see {@link WriteBehindStore#deleteAfterNextCommit}).
     */
    void deleteAfterNextCommit(String key);

    /** Visits every key and value. */
    void forEach(BiConsumer<String, V> visitor);

    List<String> keys();

    int size();

    /** Writes what changed since the last commit; Kafka Streams calls it right before it commits, replay when it would. */
    void flushCache();
}
