package io.hcwatch.topology.state;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Which parts of each key a {@link WriteBehindStore} of a {@link PartedCodec} has in its
 * changelogged store, each with a 64-bit hash of its bytes: a commit writes a part only when its
 * hash changed, and deletes the parts a value no longer has. A hash, not the bytes, to keep the
 * memory small (the bytes are the changelog's); a collision would skip one write, at odds of 2^-64
 * per changed part. The part {@link #WHOLE} is the key itself, a value an earlier layout stored whole.
 */
final class StoredParts {

    /** The name standing for a value stored whole under the key itself. */
    static final String WHOLE = "";

    /** Per key: its parts' names (sorted) and hashes, index for index. */
    private final Map<String, Parts> byKey = new HashMap<>();

    private record Parts(String[] names, long[] hashes) {

        long hashOf(String name) {
            int i = Arrays.binarySearch(names, name);
            return i < 0 ? 0 : hashes[i];
        }

        /** The parts named {@code names} (distinct, in any order) with their hashes, index for index: sorted by name. */
        static Parts sorted(String[] names, long[] hashes) {
            String[] sorted = names.clone();
            Arrays.sort(sorted);
            long[] byName = new long[names.length];
            for (int i = 0; i < names.length; i++) {
                byName[Arrays.binarySearch(sorted, names[i])] = hashes[i];
            }
            return new Parts(sorted, byName);
        }
    }

    /** Remembers what the changelogged store holds for {@code key}. */
    void held(String key, Map<String, byte[]> parts) {
        String[] names = new String[parts.size()];
        long[] hashes = new long[names.length];
        int i = 0;
        for (Map.Entry<String, byte[]> part : parts.entrySet()) {
            names[i] = part.getKey();
            hashes[i++] = PartHash.of(part.getValue());
        }
        byKey.put(key, Parts.sorted(names, hashes));
    }

    /** Whether the store has parts of {@code key} on record (else it must look them up to delete them). */
    boolean knows(String key) {
        return byKey.containsKey(key);
    }

    /**
     * Writes {@code parts} as the new value of {@code key}: the parts whose bytes changed are put,
     * those it no longer has are deleted. A part given by its hash alone ({@link EncodedParts})
     * must be what the store holds: else nothing is written, and this returns false (the caller
     * then writes every part's bytes).
     */
    boolean write(String key, Map<String, byte[]> parts, KeyValueStore<Bytes, byte[]> out) {
        Parts before = byKey.get(key);
        for (Map.Entry<String, byte[]> part : parts.entrySet()) {
            if (part.getValue() == null && (before == null || before.hashOf(part.getKey()) != EncodedParts.hashOf(parts, part.getKey()))) {
                return false;
            }
        }
        String[] names = new String[parts.size()];
        long[] hashes = new long[names.length];
        int i = 0;
        for (Map.Entry<String, byte[]> part : parts.entrySet()) {
            long hash = part.getValue() == null ? EncodedParts.hashOf(parts, part.getKey()) : PartHash.of(part.getValue());
            if (before == null || before.hashOf(part.getKey()) != hash) {
                out.put(partKey(key, part.getKey()), part.getValue());
            }
            names[i] = part.getKey();
            hashes[i++] = hash;
        }
        if (before != null) {
            for (String name : before.names()) {
                if (!parts.containsKey(name)) {
                    out.delete(partKey(key, name));
                }
            }
        }
        // each part hashed once: remembered as hashed above
        byKey.put(key, Parts.sorted(names, hashes));
        return true;
    }

    /** Deletes every part of {@code key} it has on record; the caller looks up the rest. */
    List<String> forget(String key) {
        Parts before = byKey.remove(key);
        return before == null ? List.of() : new ArrayList<>(List.of(before.names()));
    }

    void clear() {
        byKey.clear();
    }

    static Bytes partKey(String key, String part) {
        if (part.equals(WHOLE)) {
            return StoredLayout.bytes(key);
        }
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] p = part.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[k.length + 1 + p.length];
        System.arraycopy(k, 0, out, 0, k.length);
        System.arraycopy(p, 0, out, k.length + 1, p.length);
        return Bytes.wrap(out);
    }

    /** The first and last possible keys of {@code key}'s parts (not the key itself). */
    static Bytes[] partRange(String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] from = Arrays.copyOf(k, k.length + 1);
        byte[] to = Arrays.copyOf(k, k.length + 1);
        to[k.length] = 1;
        return new Bytes[] {Bytes.wrap(from), Bytes.wrap(to)};
    }

    /** A stored key's own key and part: {key, part}, the part {@link #WHOLE} for a key stored whole. */
    static String[] split(byte[] stored) {
        for (int i = 0; i < stored.length; i++) {
            if (stored[i] == 0) {
                return new String[] {new String(stored, 0, i, StandardCharsets.UTF_8),
                        new String(stored, i + 1, stored.length - i - 1, StandardCharsets.UTF_8)};
            }
        }
        return new String[] {new String(stored, StandardCharsets.UTF_8), WHOLE};
    }
}
