package io.hcwatch.topology.state;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * How a {@link WriteBehindStore}'s values lie in its changelogged store: one entry a key
 * ({@link WholeValues}), or one entry a part of each key ({@link PartedValues}), chosen by the codec.
 */
sealed interface StoredLayout<V> permits WholeValues, PartedValues {

    /** The layout for {@code codec}: in parts when it stores values in parts. */
    static <V> StoredLayout<V> of(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        return codec instanceof PartedCodec<V> parted ? new PartedValues<>(inner, parted) : new WholeValues<>(inner, codec);
    }

    /** The value stored for {@code key}, null when there is none. */
    V read(String key);

    /** Stores {@code value} for {@code key}; deletes what is stored of it when {@code value} is null. */
    void write(String key, V value);

    /**
     * Visits every stored key with the decoding of its value (which may throw
     * {@link NewerLayoutException}, and may give null when what is stored is no value).
     */
    void forEachStored(BiConsumer<String, Supplier<V>> visitor);

    /** Forgets what it remembers of the store, which was written behind its back. */
    void clear();

    static Bytes bytes(String key) {
        return Bytes.wrap(key.getBytes(StandardCharsets.UTF_8));
    }
}
