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
        SpaceSaving clientSketch;
        @JsonIgnore
        SpaceSaving keySketch;
        @JsonIgnore
        private long maxClient = -1;
        @JsonIgnore
        private long maxKey = -1;

        public Second() {
        }

        /** Adds one partition's summary of this second to the sketches. */
        void merge(List<HeavyHitter> clients, List<HeavyHitter> keys, long requests, int capacity) {
            clientSketch(capacity).merge(clients, requests);
            keySketch(capacity).merge(keys, requests);
            maxClient = -1;
            maxKey = -1;
        }

        /** The largest count any client has in this second: no client can have sent more. */
        long maxClientCount(int capacity) {
            if (maxClient < 0) {
                maxClient = clientSketch(capacity).maxCount();
            }
            return maxClient;
        }

        /** The largest count any request key has in this second. */
        long maxKeyCount(int capacity) {
            if (maxKey < 0) {
                maxKey = keySketch(capacity).maxCount();
            }
            return maxKey;
        }

        SpaceSaving clientSketch(int capacity) {
            if (clientSketch == null) {
                clientSketch = new SpaceSaving(capacity);
                clientSketch.merge(Counter.toHitters(clients), clientTotal);
            }
            return clientSketch;
        }

        SpaceSaving keySketch(int capacity) {
            if (keySketch == null) {
                keySketch = new SpaceSaving(capacity);
                keySketch.merge(Counter.toHitters(requestKeys), requestKeyTotal);
            }
            return keySketch;
        }

        /** Copies the live sketches into the plain fields that are stored. */
        void settle() {
            if (clientSketch != null) {
                clients = Counter.of(clientSketch.counters());
                clientTotal = clientSketch.total();
            }
            if (keySketch != null) {
                requestKeys = Counter.of(keySketch.counters());
                requestKeyTotal = keySketch.total();
            }
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
