package io.hcwatch.topology.state;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds a {@link WriteBehindStore} over an in-memory, changelogged key-value store. In memory
 * because detector state is small (per target group or frontend, never per client) and is
 * rebuilt quickly from its compacted changelog.
 */
public final class WriteBehindStoreBuilder<V> implements StoreBuilder<WriteBehindStore<V>> {

    private final StoreBuilder<KeyValueStore<Bytes, byte[]>> inner;
    private final StateCodec<V> codec;

    private WriteBehindStoreBuilder(StoreBuilder<KeyValueStore<Bytes, byte[]>> inner, StateCodec<V> codec) {
        this.inner = inner;
        this.codec = codec;
    }

    public static <V> WriteBehindStoreBuilder<V> inMemory(String name, StateCodec<V> codec) {
        return new WriteBehindStoreBuilder<>(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.Bytes(), Serdes.ByteArray())
                        .withCachingDisabled(),
                codec);
    }

    @Override
    public WriteBehindStoreBuilder<V> withCachingEnabled() {
        return this;
    }

    @Override
    public WriteBehindStoreBuilder<V> withCachingDisabled() {
        return this;
    }

    @Override
    public WriteBehindStoreBuilder<V> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public WriteBehindStoreBuilder<V> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public WriteBehindStore<V> build() {
        return new WriteBehindStore<>(inner.build(), codec);
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
