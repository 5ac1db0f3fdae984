package io.hcwatch.topology.state;

import java.util.Arrays;

/**
 * What {@link FleetEncoder} keeps of one target group between commits ({@code Monitored.encoded}):
 * for each step history chunk ({@code h/N}, all but one of which a step leaves as they were) the
 * hash of its values and the hash of the bytes those gave, 16 bytes a chunk. A commit gives a chunk
 * whose values hash the same by its bytes' hash alone ({@link EncodedParts}), without encoding it.
 * Not the targets' part {@code t} (which rarely changes) by its cells: reading 100,000 targets'
 * fields to compare them cost about what encoding them does, and kept ~3 KB a target group.
 */
final class EncodedFleet {

    /** Per history chunk: the hash of its values, and of its bytes; 0 for none yet. */
    private long[] chunkValues = new long[0];
    private long[] chunkBytes = new long[0];

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
