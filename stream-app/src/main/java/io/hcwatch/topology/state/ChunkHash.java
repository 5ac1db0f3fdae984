package io.hcwatch.topology.state;

import io.hcwatch.detect.fleet.StepHistory;

/**
 * A 64-bit hash of the values a step history chunk's part is written from (its steps' cells, and
 * which arrays hold each step): chunks whose values hash the same give the same bytes, short of a
 * collision, at odds of about 2^-64 for two different chunks (as for {@link PartHash}, on which the
 * store already decides whether a part changed). xxHash64's round and final mix, over the values
 * as numbers instead of over their bytes: no encoding first.
 */
final class ChunkHash {

    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;

    private ChunkHash() {
    }

    /** The hash of steps {@code from} (inclusive) to {@code to} of {@code h}, as {@link ClockRows} writes them. */
    static long of(StepHistory h, int from, int to) {
        long acc = round(P3, to - from);
        for (int i = from; i < to; i++) {
            // which of the six columns the step has, then the values of those it has
            int held = (has(h.at, i) ? 1 : 0) | (has(h.p50, i) ? 2 : 0) | (has(h.p99, i) ? 4 : 0)
                    | (has(h.healthy, i) ? 8 : 0) | (has(h.requestRate, i) ? 16 : 0) | (has(h.known, i) ? 32 : 0);
            acc = round(acc, held);
            if ((held & 1) != 0) {
                acc = round(acc, h.at[i]);
            }
            if ((held & 2) != 0) {
                acc = round(acc, Float.floatToRawIntBits(h.p50[i]));
            }
            if ((held & 4) != 0) {
                acc = round(acc, Float.floatToRawIntBits(h.p99[i]));
            }
            if ((held & 8) != 0) {
                acc = round(acc, h.healthy[i]);
            }
            if ((held & 16) != 0) {
                acc = round(acc, Float.floatToRawIntBits(h.requestRate[i]));
            }
            if ((held & 32) != 0) {
                acc = round(acc, h.known[i]);
            }
        }
        acc ^= acc >>> 33;
        acc *= P2;
        acc ^= acc >>> 29;
        acc *= P3;
        acc ^= acc >>> 32;
        return acc == 0 ? 1 : acc;
    }

    private static long round(long acc, long input) {
        return Long.rotateLeft(acc + input * P2, 31) * P1;
    }

    private static boolean has(long[] values, int i) {
        return values != null && values.length > i;
    }

    private static boolean has(int[] values, int i) {
        return values != null && values.length > i;
    }

    private static boolean has(float[] values, int i) {
        return values != null && values.length > i;
    }
}
