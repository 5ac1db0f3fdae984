package io.hcwatch.topology.state;

import java.util.Map;

/**
 * A codec that stores a value in named parts, each under its own changelog key
 * ({@code <key> NUL <part>}), so that a commit writes only the parts whose bytes changed
 * ({@link WriteBehindStore}). A part's bytes must depend on its own content only: a part whose
 * content did not change must encode to the same bytes, or it is written again for nothing.
 * {@link #encode}/{@link #decode} still give the value whole, as one piece (tests, sizes, and
 * values stored whole by an earlier layout).
 */
public interface PartedCodec<V> extends StateCodec<V> {

    /**
     * The value's parts by name (names never hold a NUL); an empty part list is not allowed. The
     * name {@code ""} stands for the key itself.
     */
    Map<String, byte[]> encodeParts(V value);

    /**
     * {@link #encodeParts}, for a commit: a part the codec knows unchanged since it last encoded
     * it may come without its bytes, by their hash ({@link EncodedParts}).
     */
    default Map<String, byte[]> encodePartsForCommit(V value) {
        return encodeParts(value);
    }

    /**
     * The value from everything stored of it, by part name, {@code ""} for the key itself (a value
     * an earlier layout stored whole, or what this one writes there); null when that holds no value.
     */
    V decodeParts(Map<String, byte[]> stored);
}
