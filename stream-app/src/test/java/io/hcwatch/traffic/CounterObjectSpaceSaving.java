package io.hcwatch.traffic;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * SpaceSaving as it was through 2026-12-07, a counter object per key in a heap of objects: kept as
 * the oracle that the slot arrays which replaced it count, evict and list exactly as it did (the
 * order of a sketch's counters decides which keys a merge of them evicts, so the flood alerts).
 */
final class CounterObjectSpaceSaving {

    private static final class Counter {
        String key;
        int hash;
        long count;
        long error;
        int at;
        HeavyHitter hitter() {
            HeavyHitter h = new HeavyHitter();
            h.setKey(key);
            h.setCount(count);
            h.setError(error);
            return h;
        }
    }

    private final int capacity;
    private final Counter[] heap;
    private final long[] counts;
    private final Counter[] index;
    private final int mask;
    private int size;
    private long total;

    CounterObjectSpaceSaving(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.heap = new Counter[capacity];
        this.counts = new long[capacity];
        int slots = 4;
        while (slots < 3L * capacity) {
            slots <<= 1;
        }
        this.index = new Counter[slots];
        this.mask = slots - 1;
    }

    public void add(String key, long increment) {
        add(key, increment, 0);
    }
    public void add(String key, long increment, long error) {
        add(key, spread(key.hashCode()), increment, error);
    }
    private void add(String key, int hash, long increment, long error) {
        total += increment;
        Counter c = find(key, hash);
        if (c != null) {
            c.count += increment;
            c.error += error;
            siftDown(c.at, c.count);
            return;
        }
        if (size < capacity) {
            c = new Counter();
            c.key = key;
            c.hash = hash;
            c.count = increment;
            c.error = error;
            c.at = size;
            heap[size++] = c;
            insert(c);
            siftUp(c.at, c.count);
            return;
        }
        c = heap[0];
        remove(c);
        long min = c.count;
        c.key = key;
        c.hash = hash;
        c.error = min + error;
        c.count = min + increment;
        insert(c);
        siftDown(0, c.count);
    }
    public void merge(List<HeavyHitter> hitters, long otherTotal) {
        long listed = 0;
        for (HeavyHitter h : hitters) {
            add(h.getKey(), spread(h.getKey().hashCode()), h.getCount(), h.getError());
            listed += h.getCount();
        }
        total += Math.max(0, otherTotal - listed);
    }
    public long floor() {
        return size < capacity ? 0 : heap[0].count;
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

    private static final Comparator<Counter> LARGEST_FIRST =
            (a, b) -> a.count != b.count ? Long.compare(b.count, a.count) : a.key.compareTo(b.key);
    public List<HeavyHitter> top(int n) {
        int k = Math.min(n, size);
        if (k <= 0) {
            return new ArrayList<>(0);
        }
        Counter[] chosen;
        if (k * 8 >= size) {
            chosen = Arrays.copyOf(heap, size);
            Arrays.sort(chosen, LARGEST_FIRST);
        } else {
            chosen = largest(k);
        }
        List<HeavyHitter> out = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            out.add(chosen[i].hitter());
        }
        return out;
    }
    private Counter[] largest(int k) {
        Counter[] run = new Counter[k];
        int held = 0;
        for (int i = 0; i < size; i++) {
            Counter c = heap[i];
            if (held == k && LARGEST_FIRST.compare(c, run[k - 1]) >= 0) {
                continue;
            }
            int at = held == k ? k - 1 : held++;
            while (at > 0 && LARGEST_FIRST.compare(c, run[at - 1]) < 0) {
                run[at] = run[at - 1];
                at--;
            }
            run[at] = c;
        }
        return run;
    }
    public long maxCount() {
        long max = 0;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, counts[i]);
        }
        return max;
    }
    public List<HeavyHitter> all() {
        return top(size);
    }
    public List<HeavyHitter> counters() {
        List<HeavyHitter> hitters = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            hitters.add(heap[i].hitter());
        }
        return hitters;
    }
    private static int spread(int h) {
        int x = h * 0x9E3779B9;
        return x ^ (x >>> 16);
    }

    private Counter find(String key, int hash) {
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            Counter c = index[i];
            if (c == null || (c.hash == hash && c.key.equals(key))) {
                return c;
            }
        }
    }

    private void insert(Counter c) {
        int i = c.hash & mask;
        while (index[i] != null) {
            i = (i + 1) & mask;
        }
        index[i] = c;
    }
    private void remove(Counter c) {
        int hole = c.hash & mask;
        while (index[hole] != c) {
            hole = (hole + 1) & mask;
        }
        for (int j = (hole + 1) & mask; index[j] != null; j = (j + 1) & mask) {
            int home = index[j].hash & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                index[hole] = index[j];
                hole = j;
            }
        }
        index[hole] = null;
    }
    private void siftUp(int i, long count) {
        Counter c = heap[i];
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
    private void siftDown(int i, long count) {
        Counter c = heap[i];
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

    private void place(Counter c, long count, int at) {
        heap[at] = c;
        counts[at] = count;
        c.at = at;
    }
}
