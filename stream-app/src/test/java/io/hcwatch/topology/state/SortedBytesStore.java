package io.hcwatch.topology.state;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A changelogged store as Kafka Streams' in-memory one keeps it (sorted by key bytes), recording
 * each write as "put key" or "delete key" with a part's NUL shown as '|'.
 */
final class SortedBytesStore {

    final NavigableMap<Bytes, byte[]> entries = new TreeMap<>();
    final List<String> writes = new ArrayList<>();

    /** The stored keys as text, a part's NUL shown as '|'. */
    List<String> keys() {
        List<String> out = new ArrayList<>();
        entries.keySet().forEach(k -> out.add(text(k)));
        return out;
    }

    void put(String key, byte[] value) {
        entries.put(Bytes.wrap(key.getBytes(StandardCharsets.UTF_8)), value);
    }

    byte[] get(String key) {
        return entries.get(Bytes.wrap(key.getBytes(StandardCharsets.UTF_8)));
    }

    static String text(Bytes key) {
        return new String(key.get(), StandardCharsets.UTF_8).replace('\0', '|');
    }

    @SuppressWarnings("unchecked")
    KeyValueStore<Bytes, byte[]> store() {
        return (KeyValueStore<Bytes, byte[]>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "put" -> {
                        writes.add("put " + text((Bytes) args[0]));
                        yield entries.put((Bytes) args[0], (byte[]) args[1]);
                    }
                    case "delete" -> {
                        writes.add("delete " + text((Bytes) args[0]));
                        yield entries.remove((Bytes) args[0]);
                    }
                    case "get" -> entries.get((Bytes) args[0]);
                    case "range" -> iterator(entries.subMap((Bytes) args[0], true, (Bytes) args[1], true));
                    case "all" -> iterator(entries);
                    case "name" -> "sorted";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @SuppressWarnings("unchecked")
    private static KeyValueIterator<Bytes, byte[]> iterator(Map<Bytes, byte[]> map) {
        Iterator<Map.Entry<Bytes, byte[]>> it = new ArrayList<>(map.entrySet()).iterator();
        return (KeyValueIterator<Bytes, byte[]>) Proxy.newProxyInstance(SortedBytesStore.class.getClassLoader(),
                new Class<?>[] {KeyValueIterator.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "hasNext" -> it.hasNext();
                    case "next" -> {
                        Map.Entry<Bytes, byte[]> e = it.next();
                        yield KeyValue.pair(e.getKey(), e.getValue());
                    }
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
