package io.hcwatch.topology.state;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A value's parts for a commit, in the order they are written, where a part the encoder knows
 * unchanged may be given without its bytes: by the hash ({@link PartHash}) its bytes have, its
 * value null. The store skips such a part when it holds bytes of that hash, and else asks for
 * every part's bytes ({@link StoredParts#write}): so a part is never left stale, whatever the
 * encoder assumed of what the store holds.
 */
final class EncodedParts extends LinkedHashMap<String, byte[]> {

    private static final long serialVersionUID = 1L;

    private final Map<String, Long> hashOnly = new HashMap<>();

    /** Part {@code name}, whose bytes hash to {@code hash}, given without them. */
    void unchanged(String name, long hash) {
        put(name, null);
        hashOnly.put(name, hash);
    }

    /** The hash of a part given without its bytes. */
    static long hashOf(Map<String, byte[]> parts, String name) {
        Long hash = parts instanceof EncodedParts p ? p.hashOnly.get(name) : null;
        if (hash == null) {
            throw new IllegalStateException("part '" + name + "' has neither bytes nor a hash");
        }
        return hash;
    }
}
