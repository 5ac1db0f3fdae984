package io.hcwatch.traffic;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Space-Saving heavy hitters (Metwally et al.): at most {@code capacity} counters whatever the
 * number of distinct keys. A key not counted is evicted into the smallest counter, whose count
 * becomes an overestimate bounded by {@link #floor()}; any key with a true count above the
 * floor is guaranteed to be present. Updates are O(log capacity) through a min-heap.
 */
public final class SpaceSaving {

    private final int capacity;
    private final String[] keys;
    private final long[] counts;
    private final long[] errors;
    private final Map<String, Integer> slot;
    private int size;
    private long total;

    public SpaceSaving(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.keys = new String[capacity];
        this.counts = new long[capacity];
        this.errors = new long[capacity];
        this.slot = new HashMap<>(capacity * 2);
    }

    public void add(String key, long increment) {
        add(key, increment, 0);
    }

    /** Adds {@code increment} occurrences of {@code key}, of which up to {@code error} may belong to other keys. */
    public void add(String key, long increment, long error) {
        total += increment;
        Integer i = slot.get(key);
        if (i != null) {
            counts[i] += increment;
            errors[i] += error;
            siftDown(i);
            return;
        }
        if (size < capacity) {
            int at = size++;
            keys[at] = key;
            counts[at] = increment;
            errors[at] = error;
            slot.put(key, at);
            siftUp(at);
            return;
        }
        long min = counts[0];
        slot.remove(keys[0]);
        keys[0] = key;
        errors[0] = min + error;
        counts[0] = min + increment;
        slot.put(key, 0);
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

    /** The counters, largest first. */
    public List<HeavyHitter> top(int n) {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> counts[i]).reversed().thenComparing(i -> keys[i]));
        List<HeavyHitter> out = new ArrayList<>(Math.min(n, size));
        for (int k = 0; k < Math.min(n, size); k++) {
            int i = order[k];
            out.add(new HeavyHitter(keys[i], counts[i], errors[i]));
        }
        return out;
    }

    public List<HeavyHitter> all() {
        return top(size);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (counts[parent] <= counts[i]) {
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
            if (left < size && counts[left] < counts[smallest]) {
                smallest = left;
            }
            if (right < size && counts[right] < counts[smallest]) {
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
        String k = keys[a];
        keys[a] = keys[b];
        keys[b] = k;
        long c = counts[a];
        counts[a] = counts[b];
        counts[b] = c;
        long e = errors[a];
        errors[a] = errors[b];
        errors[b] = e;
        slot.put(keys[a], a);
        slot.put(keys[b], b);
    }
}
