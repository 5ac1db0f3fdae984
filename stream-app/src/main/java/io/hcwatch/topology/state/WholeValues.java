package io.hcwatch.topology.state;

import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Each key's value encoded whole under the key itself. */
final class WholeValues<V> implements StoredLayout<V> {

    private final KeyValueStore<Bytes, byte[]> inner;
    private final StateCodec<V> codec;

    WholeValues(KeyValueStore<Bytes, byte[]> inner, StateCodec<V> codec) {
        this.inner = inner;
        this.codec = codec;
    }

    @Override
    public V read(String key) {
        byte[] bytes = inner.get(StoredLayout.bytes(key));
        return bytes == null ? null : codec.decode(bytes);
    }

    @Override
    public void write(String key, V value) {
        if (value == null) {
            inner.delete(StoredLayout.bytes(key));
        } else {
            inner.put(StoredLayout.bytes(key), codec.encode(value));
        }
    }

    @Override
    public void forEachStored(BiConsumer<String, Supplier<V>> visitor) {
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                var entry = it.next();
                visitor.accept(new String(entry.key.get(), StandardCharsets.UTF_8), () -> codec.decode(entry.value));
            }
        }
    }

    @Override
    public void clear() {
    }
}
