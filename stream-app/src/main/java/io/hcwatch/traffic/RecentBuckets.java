package io.hcwatch.traffic;

import java.util.Arrays;

/**
 * The last few summaries a combiner counted lines into, found by the very name Strings and the
 * second before its maps are asked: the parsers hand over one String per recurring name, so a
 * reference compare finds a load balancer's or a frontend's current second without building a
 * key and hashing it for every line. Names that are equal but other Strings only miss, and the map
 * answers as before. Forgotten whenever the combiner takes summaries out (they would be stale).
 */
final class RecentBuckets<V> {

    private static final int SIZE = 8;

    private final String[] firsts = new String[SIZE];
    private final String[] seconds = new String[SIZE];
    private final String[] thirds = new String[SIZE];
    private final long[] starts = new long[SIZE];
    private final Object[] values = new Object[SIZE];
    private int next;

    @SuppressWarnings("unchecked")
    V find(String first, String second, String third, long start) {
        for (int i = 0; i < SIZE; i++) {
            if (firsts[i] == first && starts[i] == start && seconds[i] == second && thirds[i] == third && values[i] != null) {
                return (V) values[i];
            }
        }
        return null;
    }

    void remember(String first, String second, String third, long start, V value) {
        firsts[next] = first;
        seconds[next] = second;
        thirds[next] = third;
        starts[next] = start;
        values[next] = value;
        next = (next + 1) & (SIZE - 1);
    }

    void forget() {
        Arrays.fill(firsts, null);
        Arrays.fill(seconds, null);
        Arrays.fill(thirds, null);
        Arrays.fill(values, null);
    }
}
