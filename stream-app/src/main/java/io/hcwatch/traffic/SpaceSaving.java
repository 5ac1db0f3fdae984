package io.hcwatch.traffic;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Space-Saving heavy hitters (Metwally et al.): at most {@code capacity} counters whatever the
 * number of distinct keys. A key not counted is evicted into the smallest counter, whose count
 * becomes an overestimate bounded by {@link #floor()}; any key with a true count above the
 * floor is guaranteed to be present. Updates are O(log capacity) through a min-heap of counters.
 *
 * <p>Counters are slots of parallel arrays, not objects: the heap holds slot numbers beside their
 * counts, and each slot knows its heap position, so a sift moves ints and longs within a few small
 * arrays and touches no key. With many distinct keys nearly every update evicts and sifts from the
 * root to a leaf (this runs for every access-log line); with a counter object per key, each level
 * of the sift wrote to another object. The index is an open-addressing table of slot numbers, for
 * the same reason a map would allocate and free an entry per eviction.
 */
public final class SpaceSaving {

    private final int capacity;
    /** Per slot: its key, the key's hash as {@link #spread} makes it, its error and its heap position. */
    private final String[] keys;
    private final int[] hashes;
    private final long[] errors;
    private final int[] at;
    /** The heap: each position's slot, and that slot's count beside it, so sifting reads no slot. */
    private final int[] heap;
    private final long[] counts;
    /** Open addressing: slot + 1 per table entry, 0 for none. */
    private final int[] index;
    private final int mask;
    private int size;
    private long total;

    public SpaceSaving(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.keys = new String[capacity];
        this.hashes = new int[capacity];
        this.errors = new long[capacity];
        this.at = new int[capacity];
        this.heap = new int[capacity];
        this.counts = new long[capacity];
        int slots = 4;
        while (slots < 3L * capacity) {
            slots <<= 1;
        }
        this.index = new int[slots];
        this.mask = slots - 1;
    }

    public void add(String key, long increment) {
        add(key, increment, 0);
    }

    /** Adds {@code increment} occurrences of {@code key}, of which up to {@code error} may belong to other keys. */
    public void add(String key, long increment, long error) {
        add(key, spread(key.hashCode()), increment, error);
    }

    /** As {@link #add(String, long, long)}, with the key's hash as {@link #spread} makes it. */
    private void add(String key, int hash, long increment, long error) {
        total += increment;
        int slot = find(key, hash);
        if (slot >= 0) {
            errors[slot] += error;
            int i = at[slot];
            siftDown(i, counts[i] + increment);
            return;
        }
        if (size < capacity) {
            slot = size++;
            keys[slot] = key;
            hashes[slot] = hash;
            errors[slot] = error;
            heap[slot] = slot;
            insert(slot);
            siftUp(slot, increment);
            return;
        }
        slot = heap[0];
        remove(slot);
        long min = counts[0];
        keys[slot] = key;
        hashes[slot] = hash;
        errors[slot] = min + error;
        insert(slot);
        siftDown(0, min + increment);
    }

    /**
     * Adds another sketch's counters (its {@link #counters()} and {@link #total()}) as if each key
     * had been added here with that count and error; what the other sketch counted but does not list
     * ({@code otherTotal} less its counters) only adds to the total. The other sketch's floor is not
     * used: a key this sketch holds and the other does not list gets nothing for the occurrences the
     * other may have folded into its floor, and a key only the other lists gets this sketch's floor
     * only if it evicts a counter.
     *
     * <p>So after merging sketches that were full, {@code count - error} of every counter is still a
     * lower bound on the key's true count (each side's is, and an eviction passes it on unchanged:
     * the flood detectors fire on that alone), but a count may be below the true count and
     * {@link #floor()} no longer bounds the keys not listed. The merge of Cafaro et al.'s parallel
     * Space-Saving restores both by crediting a key listed on one side only with the other side's
     * smallest counter, as count and as error; it needs each side's floor, which the stored
     * per-second summaries do not keep.
     */
    public void merge(List<HeavyHitter> hitters, long otherTotal) {
        long listed = 0;
        int[] listedHashes = hitters instanceof Listed l ? l.hashes : null;
        int i = 0;
        for (HeavyHitter h : hitters) {
            add(h.getKey(), listedHashes != null ? listedHashes[i++] : spread(h.getKey().hashCode()), h.getCount(), h.getError());
            listed += h.getCount();
        }
        total += Math.max(0, otherTotal - listed);
    }

    /** Upper bound on the true count of any key not listed, for a sketch fed by {@code add} alone (see {@link #merge}). */
    public long floor() {
        return size < capacity ? 0 : counts[0];
    }

    public long total() {
        return total;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    /** Slots {@code a} and {@code b} compared largest first: by count, then by key. */
    private int largestFirst(int a, int b) {
        long ca = counts[at[a]];
        long cb = counts[at[b]];
        return ca != cb ? Long.compare(cb, ca) : keys[a].compareTo(keys[b]);
    }

    /**
     * The {@code n} largest counters, largest first (ties by key). A few of a full sketch are
     * picked in one pass instead of sorting all of it: the flood detector asks for its top five
     * on every evaluation.
     */
    public List<HeavyHitter> top(int n) {
        int k = Math.min(n, size);
        if (k <= 0) {
            return new ArrayList<>(0);
        }
        int[] chosen = k * 8 >= size
                ? Arrays.stream(heap, 0, size).boxed().sorted(this::largestFirst).mapToInt(Integer::intValue).toArray()
                : largest(k);
        List<HeavyHitter> out = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            out.add(hitter(chosen[i]));
        }
        return out;
    }

    /** The slots of the {@code k} largest counters in order, by insertion into a sorted run of {@code k}. */
    private int[] largest(int k) {
        int[] run = new int[k];
        int held = 0;
        for (int i = 0; i < size; i++) {
            int c = heap[i];
            if (held == k && largestFirst(c, run[k - 1]) >= 0) {
                continue;
            }
            int to = held == k ? k - 1 : held++;
            while (to > 0 && largestFirst(c, run[to - 1]) < 0) {
                run[to] = run[to - 1];
                to--;
            }
            run[to] = c;
        }
        return run;
    }

    /** The largest count (0 when empty): what no key of this sketch can have exceeded. */
    public long maxCount() {
        long max = 0;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, counts[i]);
        }
        return max;
    }

    /** Every counter, largest first. */
    public List<HeavyHitter> all() {
        return top(size);
    }

    /** Every counter in no particular order: for merging and storing, where order does not matter. */
    public List<HeavyHitter> counters() {
        HeavyHitter[] hitters = new HeavyHitter[size];
        int[] hashes = new int[size];
        for (int i = 0; i < size; i++) {
            hitters[i] = hitter(heap[i]);
            hashes[i] = this.hashes[heap[i]];
        }
        return new Listed(hitters, hashes);
    }

    /**
     * The list {@link #counters()} returns, unmodifiable: its keys are distinct and there are at
     * most as many as the sketch's capacity, so merged into an empty sketch at least as large it
     * evicts nothing and each counter keeps its count (no other list is known to be so: a decoded
     * one is taken as any list). It carries each key's hash as the sketch kept it, so a merge does
     * not read the keys again: the flood monitor merges every partial summary of a second (one per
     * 100 ms flush) into the second's sketch, and the keys' strings are cold by then. Its
     * HeavyHitters are not to be changed either.
     */
    public static final class Listed extends AbstractList<HeavyHitter> implements RandomAccess {

        private final HeavyHitter[] hitters;
        private final int[] hashes;

        private Listed(HeavyHitter[] hitters, int[] hashes) {
            this.hitters = hitters;
            this.hashes = hashes;
        }

        @Override
        public HeavyHitter get(int index) {
            return hitters[index];
        }

        @Override
        public int size() {
            return hitters.length;
        }

        /** The largest count (0 when empty): what {@link #maxCount()} of an empty sketch would say after merging this list. */
        public long maxCount() {
            long max = 0;
            for (HeavyHitter h : hitters) {
                max = Math.max(max, h.getCount());
            }
            return max;
        }
    }

    private static int spread(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }

    /** A slot's counter as a HeavyHitter, through its setters: its constructor takes boxed counts (a Long allocated per counter listed). */
    private HeavyHitter hitter(int slot) {
        HeavyHitter h = new HeavyHitter();
        h.setKey(keys[slot]);
        h.setCount(counts[at[slot]]);
        h.setError(errors[slot]);
        return h;
    }

    /** The slot that counts {@code key}, or -1. */
    private int find(String key, int hash) {
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int e = index[i];
            if (e == 0) {
                return -1;
            }
            int slot = e - 1;
            if (hashes[slot] == hash && keys[slot].equals(key)) {
                return slot;
            }
        }
    }

    private void insert(int slot) {
        int i = hashes[slot] & mask;
        while (index[i] != 0) {
            i = (i + 1) & mask;
        }
        index[i] = slot + 1;
    }

    /** Linear-probing removal by shifting later entries back, so no probe chain is left broken. */
    private void remove(int slot) {
        int hole = hashes[slot] & mask;
        while (index[hole] != slot + 1) {
            hole = (hole + 1) & mask;
        }
        for (int j = (hole + 1) & mask; index[j] != 0; j = (j + 1) & mask) {
            int home = hashes[index[j] - 1] & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                index[hole] = index[j];
                hole = j;
            }
        }
        index[hole] = 0;
    }

    /**
     * Moves the slot at heap position {@code i}, whose count is now {@code count}, up while its
     * parent's count is larger: the swaps of the textbook sift, each parent moved down into the hole instead.
     */
    private void siftUp(int i, long count) {
        int c = heap[i];
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (counts[parent] <= count) {
                break;
            }
            place(heap[parent], counts[parent], i);
            i = parent;
        }
        place(c, count, i);
    }

    /** Moves the slot at heap position {@code i}, whose count is now {@code count}, down below its smaller child while one is smaller (the left on a tie). */
    private void siftDown(int i, long count) {
        int c = heap[i];
        while (true) {
            int left = 2 * i + 1;
            int right = left + 1;
            int smallest = i;
            long least = count;
            if (left < size && counts[left] < least) {
                smallest = left;
                least = counts[left];
            }
            if (right < size && counts[right] < least) {
                smallest = right;
                least = counts[right];
            }
            if (smallest == i) {
                break;
            }
            place(heap[smallest], least, i);
            i = smallest;
        }
        place(c, count, i);
    }

    private void place(int slot, long count, int position) {
        heap[position] = slot;
        counts[position] = count;
        at[slot] = position;
    }
}
