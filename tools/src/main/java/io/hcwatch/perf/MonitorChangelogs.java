package io.hcwatch.perf;

import io.hcwatch.replay.ReplayStores;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.topology.state.DetachedStore;
import io.hcwatch.topology.state.ObjectStore;
import io.hcwatch.topology.state.StateCodec;
import io.hcwatch.topology.state.WriteBehindStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * The monitors' stores of one replay (not their clocks, not the ingest's pending stores), each
 * written behind to a {@link ChangelogMeter} that keeps its compacted changelog: the bytes written,
 * by store and by part of a key ({@code <key> NUL <part>}: the part's name up to its first '/'),
 * and a restore of every store from what its changelog holds, timed and checked against the
 * live objects.
 */
final class MonitorChangelogs implements ReplayStores {

    private static final Set<String> MONITOR_STORES = Set.of(TopologyFactory.FLEET_STORE, TopologyFactory.HOST_STORE,
            TopologyFactory.FLOOD_STORE, TopologyFactory.FEED_STORE);

    /** One measured store: its live store, its meter and its codec. */
    private record Measured<V>(WriteBehindStore<V> live, ChangelogMeter meter, StateCodec<V> codec) {
    }

    /** What a restore took: keys and bytes read, and the time to read them into a store and decode every key. */
    record Restore(String store, int keys, int entries, long bytes, double seconds) {
    }

    private final Map<String, Measured<?>> stores = new TreeMap<>();
    /** Bytes written by "store part", in name order. */
    private final Map<String, long[]> byPart = new TreeMap<>();
    private long total;
    /** Every write in order (store, key, value or tombstone), when asked for: what a change of the encoding must leave as it was. */
    private final MessageDigest digest;
    private long digested;

    MonitorChangelogs() {
        this(false);
    }

    MonitorChangelogs(boolean digest) {
        try {
            this.digest = digest ? MessageDigest.getInstance("SHA-256") : null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public <V> ObjectStore<V> store(String name, StateCodec<V> codec) {
        if (!MONITOR_STORES.contains(name)) {
            return new DetachedStore<>(name);
        }
        ChangelogMeter meter = new ChangelogMeter(name, (key, value) -> written(name, key, value), true);
        WriteBehindStore<V> store = WriteBehindStore.over(meter, codec);
        // an empty changelog, read: a key written and deleted between two commits costs nothing, as live
        store.size();
        stores.put(name, new Measured<>(store, meter, codec));
        return store;
    }

    private void written(String store, Bytes key, byte[] value) {
        long bytes = ChangelogMeter.bytes(key, value);
        total += bytes;
        if (digest != null) {
            digest.update(store.getBytes(StandardCharsets.UTF_8));
            digest.update(ByteBuffer.allocate(8).putInt(key.get().length).putInt(value == null ? -1 : value.length).array());
            digest.update(key.get());
            if (value != null) {
                digest.update(value);
            }
            digested++;
        }
        long[] sum = byPart.computeIfAbsent(store + " " + part(key.get()), k -> new long[2]);
        sum[0] += bytes;
        sum[1]++;
    }

    /** The part a stored key holds: the name after the NUL up to its first '/', or "whole" for a key stored whole. */
    static String part(byte[] key) {
        for (int i = 0; i < key.length; i++) {
            if (key[i] == 0) {
                int end = i + 1;
                while (end < key.length && key[end] != '/') {
                    end++;
                }
                return new String(key, i + 1, end - i - 1, StandardCharsets.UTF_8);
            }
        }
        return "whole";
    }

    /** The SHA-256 of every write so far and their count, or null when not asked for. */
    String digest() {
        return digest == null ? null : HexFormat.of().formatHex(digest.digest()) + " over " + digested + " writes";
    }

    long total() {
        return total;
    }

    /** Bytes and writes by "store part". */
    Map<String, long[]> byPart() {
        return byPart;
    }

    /** Keys (before any NUL) and bytes each store's compacted changelog holds. */
    long[] held(String store) {
        Measured<?> m = stores.get(store);
        if (m == null) {
            return new long[2];
        }
        long bytes = 0;
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Map.Entry<Bytes, byte[]> e : m.meter().compacted().entrySet()) {
            bytes += e.getKey().get().length + e.getValue().length;
            keys.add(baseKey(e.getKey().get()));
        }
        return new long[] {keys.size(), bytes};
    }

    private static String baseKey(byte[] key) {
        int end = 0;
        while (end < key.length && key[end] != 0) {
            end++;
        }
        return new String(key, 0, end, StandardCharsets.UTF_8);
    }

    /**
     * Rebuilds every store from its compacted changelog as a restarted instance would: the entries
     * put into a fresh store (as Kafka Streams' restore puts each record into the in-memory store),
     * then every key read and decoded. Each restored value must encode as its live value does,
     * else the layout lost something and this throws.
     */
    List<Restore> restore() {
        List<Restore> out = new ArrayList<>();
        for (Map.Entry<String, Measured<?>> e : stores.entrySet()) {
            out.add(restore(e.getKey(), e.getValue()));
        }
        return out;
    }

    private static <V> Restore restore(String name, Measured<V> m) {
        List<KeyValue<Bytes, byte[]>> changelog = new ArrayList<>(m.meter().compacted().size());
        long bytes = 0;
        for (Map.Entry<Bytes, byte[]> e : m.meter().compacted().entrySet()) {
            changelog.add(KeyValue.pair(e.getKey(), e.getValue()));
            bytes += e.getKey().get().length + e.getValue().length;
        }
        long start = System.nanoTime();
        ChangelogMeter target = new ChangelogMeter(name, (key, value) -> { }, true);
        target.putAll(changelog);
        WriteBehindStore<V> restored = WriteBehindStore.over(target, m.codec());
        int keys = restored.size();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (keys != m.live().size()) {
            throw new IllegalStateException(name + ": " + keys + " keys restored, " + m.live().size() + " live");
        }
        m.live().forEach((key, live) -> {
            V back = restored.get(key);
            if (back == null || !Arrays.equals(m.codec().encode(live), m.codec().encode(back))) {
                throw new IllegalStateException(name + ": key " + key + " restored differs from its live value");
            }
        });
        return new Restore(name, keys, changelog.size(), bytes, seconds);
    }
}
