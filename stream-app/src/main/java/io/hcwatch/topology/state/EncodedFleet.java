package io.hcwatch.topology.state;

import java.util.Arrays;

/**
 * What {@link FleetEncoder} keeps of one target group between commits ({@code Monitored.encoded}):
 * the last cells and bytes of its targets' part {@code t}, which rarely changes: while its cells
 * are the same it is not encoded again ({@link CachedPart}); and of each step history chunk
 * ({@code h/N}, all but one of which a step leaves as they were) the hash of its values and the
 * hash of the bytes those gave, 16 bytes a chunk: a commit gives a chunk whose values hash the same
 * by its bytes' hash alone ({@link EncodedParts}). Not the latency slots' parts ({@code l/N}):
 * keeping their cells cost more memory (~2 KB a target group) than it saved time.
 */
final class EncodedFleet {

    /** The cells of the part being written: one log, refilled for each part. */
    private final RowLog scratch = new RowLog();
    final CachedPart targets = new CachedPart();
    /** Per history chunk: the hash of its values, and of its bytes; 0 for none yet. */
    private long[] chunkValues = new long[0];
    private long[] chunkBytes = new long[0];

    /** The log to write a part's cells to, emptied. */
    RowLog cells() {
        scratch.clear();
        return scratch;
    }

    /** The hash of the bytes chunk {@code n} gave when its values hashed to {@code values}, else 0. */
    long chunkBytes(int n, long values) {
        return n < chunkValues.length && chunkValues[n] == values ? chunkBytes[n] : 0;
    }

    /** Chunk {@code n}'s values hashed to {@code values}, and gave bytes of hash {@code bytes}. */
    void chunk(int n, long values, long bytes) {
        if (n >= chunkValues.length) {
            chunkValues = Arrays.copyOf(chunkValues, n + 1);
            chunkBytes = Arrays.copyOf(chunkBytes, n + 1);
        }
        chunkValues[n] = values;
        chunkBytes[n] = bytes;
    }
}
