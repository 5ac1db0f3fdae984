package io.hcwatch.traffic;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Space-Saving heavy hitters (Metwally et al.): at most {@code capacity} counters whatever the
 * number of distinct keys. A key not counted is evicted into the smallest counter, whose count
 * becomes an overestimate bounded by {@link #floor()}; any key with a true count above the
 * floor is guaranteed to be present. Updates are O(log capacity) through a min-heap of counters
 * that know their own heap position, so moving one never touches the key index.
 */
public final class SpaceSaving {

    private static final class Counter {
        String key;
        long count;
        long error;
        int at;
    }

    private final int capacity;
    private final Counter[] heap;
    private final Map<String, Counter> byKey;
    private int size;
    private long total;

    public SpaceSaving(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.heap = new Counter[capacity];
        this.byKey = new HashMap<>(capacity * 2);
    }

    public void add(String key, long increment) {
        add(key, increment, 0);
    }

    /** Adds {@code increment} occurrences of {@code key}, of which up to {@code error} may belong to other keys. */
    public void add(String key, long increment, long error) {
        total += increment;
        Counter c = byKey.get(key);
        if (c != null) {
            c.count += increment;
            c.error += error;
            siftDown(c.at);
            return;
        }
        if (size < capacity) {
            c = new Counter();
            c.key = key;
            c.count = increment;
            c.error = error;
            c.at = size;
            heap[size++] = c;
            byKey.put(key, c);
            siftUp(c.at);
            return;
        }
        c = heap[0];
        byKey.remove(c.key);
        long min = c.count;
        c.key = key;
        c.error = min + error;
        c.count = min + increment;
        byKey.put(key, c);
        siftDown(0);
    }

    /** Merges another sketch: its counters plus, for keys it lacks, its floor as possible error. */
    public void merge(List<HeavyHitter> hitters, long otherTotal) {
        long listed = 0;
        for (HeavyHitter h : hitters) {
            add(h.getKey(), h.getCount(), h.getError());
            listed += h.getCount();
        }
        total += Math.max(0, otherTotal - listed);
    }

    /** Upper bound on the true count of any key not listed. */
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

    /** The {@code n} largest counters, largest first (ties by key). */
    public List<HeavyHitter> top(int n) {
        Counter[] sorted = Arrays.copyOf(heap, size);
        Arrays.sort(sorted, (a, b) -> a.count != b.count ? Long.compare(b.count, a.count) : a.key.compareTo(b.key));
        int k = Math.min(n, size);
        List<HeavyHitter> out = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            out.add(new HeavyHitter(sorted[i].key, sorted[i].count, sorted[i].error));
        }
        return out;
    }

    /** Every counter, largest first. */
    public List<HeavyHitter> all() {
        return top(size);
    }

    /** Every counter in no particular order: for merging and storing, where order does not matter. */
    public List<HeavyHitter> counters() {
        List<HeavyHitter> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(new HeavyHitter(heap[i].key, heap[i].count, heap[i].error));
        }
        return out;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (heap[parent].count <= heap[i].count) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            int right = left + 1;
            int smallest = i;
            if (left < size && heap[left].count < heap[smallest].count) {
                smallest = left;
            }
            if (right < size && heap[right].count < heap[smallest].count) {
                smallest = right;
            }
            if (smallest == i) {
                return;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int a, int b) {
        Counter x = heap[a];
        heap[a] = heap[b];
        heap[b] = x;
        heap[a].at = a;
        heap[b].at = b;
    }
}
