package io.hcwatch.detect.flood;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.traffic.SpaceSaving;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests of one HAProxy frontend (over all hosts that serve it) or one ALB, by client and by
 * request key, second by second over the flood window. Each second holds bounded Space-Saving
 * sketches, so memory does not grow with the number of distinct clients.
 */
public final class FloodState {

    public String platform;
    public String scope;
    public List<Second> seconds = new ArrayList<>();

    public FloodState() {
    }

    /** One second of one scope: totals per host and the merged sketches. */
    public static final class Second {
        public long start;
        public long requests;
        public long tarpitted;
        public Map<String, Long> requestsByHost = new LinkedHashMap<>();
        public List<Counter> clients = new ArrayList<>();
        public long clientTotal;
        public List<Counter> requestKeys = new ArrayList<>();
        public long requestKeyTotal;
        @JsonIgnore
        private final Merged clientSide = new Merged();
        @JsonIgnore
        private final Merged keySide = new Merged();

        public Second() {
        }

        /** Adds one partition's summary of this second to the sketches. */
        void merge(List<HeavyHitter> clients, List<HeavyHitter> keys, long requests, int capacity) {
            clientSide.merge(clients, requests, capacity, this.clients, clientTotal);
            keySide.merge(keys, requests, capacity, requestKeys, requestKeyTotal);
        }

        /** The largest count any client has in this second: no client can have sent more. */
        long maxClientCount(int capacity) {
            return clientSide.maxCount(capacity, clients, clientTotal);
        }

        /** The largest count any request key has in this second. */
        long maxKeyCount(int capacity) {
            return keySide.maxCount(capacity, requestKeys, requestKeyTotal);
        }

        SpaceSaving clientSketch(int capacity) {
            return clientSide.sketch(capacity, clients, clientTotal);
        }

        SpaceSaving keySketch(int capacity) {
            return keySide.sketch(capacity, requestKeys, requestKeyTotal);
        }

        /** Copies the live sketches into the plain fields that are stored. */
        void settle() {
            SpaceSaving c = clientSide.settled(clients, clientTotal);
            if (c != null) {
                clients = Counter.of(c.counters());
                clientTotal = c.total();
            }
            SpaceSaving k = keySide.settled(requestKeys, requestKeyTotal);
            if (k != null) {
                requestKeys = Counter.of(k.counters());
                requestKeyTotal = k.total();
            }
        }
    }

    /**
     * One of a second's sketches, built from its stored counters when first needed. A summary
     * merged into a second that holds nothing yet, if it is a sketch's own list
     * ({@link SpaceSaving.Listed}, no larger than the capacity), is only kept: merged into the empty
     * sketch it would evict nothing, so until a second summary comes (or the sketch is read) its
     * largest count is the list's, and the sketch is built later exactly as it would have been now.
     * Most scopes send one summary a second (an ALB, an HAProxy frontend on one host): their
     * sketches are never built in replay.
     */
    private static final class Merged {
        private SpaceSaving sketch;
        private SpaceSaving.Listed pending;
        private long pendingTotal;
        /** The capacity the kept summary is to be merged at. */
        private int pendingCapacity;
        private long max = -1;

        void merge(List<HeavyHitter> hitters, long total, int capacity, List<Counter> stored, long storedTotal) {
            max = -1;
            if (sketch == null && pending == null && stored.isEmpty() && storedTotal == 0
                    && hitters instanceof SpaceSaving.Listed listed && listed.size() <= capacity) {
                pending = listed;
                pendingTotal = total;
                pendingCapacity = capacity;
                return;
            }
            sketch(capacity, stored, storedTotal).merge(hitters, total);
        }

        long maxCount(int capacity, List<Counter> stored, long storedTotal) {
            if (max < 0) {
                max = sketch == null && pending != null ? pending.maxCount() : sketch(capacity, stored, storedTotal).maxCount();
            }
            return max;
        }

        SpaceSaving sketch(int capacity, List<Counter> stored, long storedTotal) {
            if (sketch == null) {
                sketch = new SpaceSaving(capacity);
                sketch.merge(Counter.toHitters(stored), storedTotal);
                if (pending != null) {
                    sketch.merge(pending, pendingTotal);
                    pending = null;
                }
            }
            return sketch;
        }

        /** The sketch to store, built if a summary is only kept; null when nothing was merged or read since the decode. */
        SpaceSaving settled(List<Counter> stored, long storedTotal) {
            return pending != null ? sketch(pendingCapacity, stored, storedTotal) : sketch;
        }
    }

    /** A stored Space-Saving counter. */
    public static final class Counter {
        public String key;
        public long count;
        public long error;

        public Counter() {
        }

        static List<Counter> of(List<HeavyHitter> hitters) {
            List<Counter> out = new ArrayList<>(hitters.size());
            for (HeavyHitter h : hitters) {
                Counter c = new Counter();
                c.key = h.getKey();
                c.count = h.getCount();
                c.error = h.getError();
                out.add(c);
            }
            return out;
        }

        static List<HeavyHitter> toHitters(List<Counter> counters) {
            List<HeavyHitter> out = new ArrayList<>(counters.size());
            counters.forEach(c -> out.add(new HeavyHitter(c.key, c.count, c.error)));
            return out;
        }
    }

    @JsonIgnore
    private SpaceSaving windowClients;
    @JsonIgnore
    private SpaceSaving windowKeys;
    @JsonIgnore
    private long windowCutoff = Long.MIN_VALUE;
    @JsonIgnore
    private long windowLatest = Long.MIN_VALUE;

    /**
     * Client and request-key sketches over the seconds in (now - window, now]. Kept between calls
     * and rebuilt only when a second enters or leaves the window: evaluating on every summary would
     * otherwise merge the whole window each time.
     */
    SpaceSaving[] window(long now, long windowMillis, int capacity) {
        long cutoff = now - windowMillis;
        long latest = Math.floorDiv(now, 1000);
        if (windowClients == null || cutoff / 1000 != windowCutoff / 1000 || latest != windowLatest) {
            windowClients = new SpaceSaving(capacity);
            windowKeys = new SpaceSaving(capacity);
            for (Second sec : seconds) {
                if (sec.start > cutoff && sec.start <= now) {
                    windowClients.merge(sec.clientSketch(capacity).counters(), sec.clientSketch(capacity).total());
                    windowKeys.merge(sec.keySketch(capacity).counters(), sec.keySketch(capacity).total());
                }
            }
            windowCutoff = cutoff;
            windowLatest = latest;
        }
        return new SpaceSaving[] {windowClients, windowKeys};
    }

    /** A summary for {@code second} was merged: fold it into the cached window too, or drop the cache. */
    void added(long second, java.util.List<HeavyHitter> clients, java.util.List<HeavyHitter> keys, long requests) {
        if (windowClients == null) {
            return;
        }
        if (second > windowCutoff && Math.floorDiv(second, 1000) <= windowLatest) {
            windowClients.merge(clients, requests);
            windowKeys.merge(keys, requests);
        } else {
            windowClients = null;
        }
    }

    /** Prepares the state for encoding. */
    public void settle() {
        seconds.forEach(Second::settle);
    }
}
