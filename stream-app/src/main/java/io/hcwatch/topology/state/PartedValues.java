package io.hcwatch.topology.state;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Each key in parts ({@code <key> NUL <part>}, and the key itself), a write putting only the parts
 * whose bytes changed since they were stored ({@link StoredParts}).
 */
final class PartedValues<V> implements StoredLayout<V> {

    private final KeyValueStore<Bytes, byte[]> inner;
    private final PartedCodec<V> codec;
    private final StoredParts parts = new StoredParts();

    PartedValues(KeyValueStore<Bytes, byte[]> inner, PartedCodec<V> codec) {
        this.inner = inner;
        this.codec = codec;
    }

    @Override
    public V read(String key) {
        Map<String, byte[]> stored = stored(key);
        return stored.isEmpty() ? null : decode(key, stored);
    }

    /** Everything the changelogged store holds of {@code key}: its parts and the key itself ({@link StoredParts#WHOLE}). */
    private Map<String, byte[]> stored(String key) {
        Map<String, byte[]> stored = new HashMap<>();
        Bytes[] range = StoredParts.partRange(key);
        try (KeyValueIterator<Bytes, byte[]> it = inner.range(range[0], range[1])) {
            while (it.hasNext()) {
                var entry = it.next();
                stored.put(StoredParts.split(entry.key.get())[1], entry.value);
            }
        }
        byte[] whole = inner.get(StoredParts.partKey(key, StoredParts.WHOLE));
        if (whole != null) {
            stored.put(StoredParts.WHOLE, whole);
        }
        return stored;
    }

    /** A value from what is stored of it (null when that is no value), its parts remembered. */
    private V decode(String key, Map<String, byte[]> stored) {
        V value = codec.decodeParts(stored);
        if (value != null) {
            parts.held(key, stored);
        }
        return value;
    }

    /** The parts of {@code key} that changed are written, those it no longer has deleted; all of them when it was deleted. */
    @Override
    public void write(String key, V value) {
        if (value != null) {
            if (!parts.knows(key)) {
                // parts stored by an earlier run that this one never read (the key was replaced unread): delete what the new value lacks
                Map<String, byte[]> stored = stored(key);
                if (!stored.isEmpty()) {
                    parts.held(key, stored);
                }
            }
            if (!parts.write(key, codec.encodePartsForCommit(value), inner)) {
                // a part the codec gave by its hash is not what the store holds: every part's bytes, then
                parts.write(key, codec.encodeParts(value), inner);
            }
            return;
        }
        List<String> known = parts.forget(key);
        (known.isEmpty() ? stored(key).keySet() : known).forEach(part -> inner.delete(StoredParts.partKey(key, part)));
    }

    @Override
    public void forEachStored(BiConsumer<String, Supplier<V>> visitor) {
        Map<String, Map<String, byte[]>> byKey = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = inner.all()) {
            while (it.hasNext()) {
                var entry = it.next();
                String[] keyAndPart = StoredParts.split(entry.key.get());
                byKey.computeIfAbsent(keyAndPart[0], k -> new HashMap<>()).put(keyAndPart[1], entry.value);
            }
        }
        byKey.forEach((key, stored) -> visitor.accept(key, () -> decode(key, stored)));
    }

    @Override
    public void clear() {
        parts.clear();
    }
}
