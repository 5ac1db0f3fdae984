package io.hcwatch.detect.flood;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.traffic.SpaceSaving;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A second keeps a summary that is a sketch's own list instead of merging it into its empty
 * sketch at once ({@code FloodState.Merged}). Checked against the straightforward path, a sketch
 * built at the first merge and fed every summary in turn, on generated summaries: sketches' own
 * lists of every size around the capacity, plain lists (with repeated keys), seconds restored
 * with stored counters, reads of the largest count, the sketch and the stored form in between.
 */
class FloodSecondMergeTest {

    private static final int RUNS = 3000;

    @Test
    void keptSummariesGiveWhatMergingAtOnceGives() {
        SplittableRandom random = new SplittableRandom(30);
        int kept = 0;
        for (int run = 0; run < RUNS; run++) {
            int capacity = 1 + random.nextInt(12);
            FloodState.Second second = new FloodState.Second();
            Straightforward expected = new Straightforward();
            if (random.nextInt(4) == 0) {
                restore(second, expected, random, capacity);
            }
            int ops = 1 + random.nextInt(6);
            for (int op = 0; op < ops; op++) {
                switch (random.nextInt(5)) {
                    case 0, 1 -> {
                        List<HeavyHitter> clients = summary(random, capacity);
                        List<HeavyHitter> keys = summary(random, capacity);
                        kept += clients instanceof SpaceSaving.Listed && clients.size() <= capacity ? 1 : 0;
                        long requests = total(clients) + random.nextInt(3);
                        second.merge(clients, keys, requests, capacity);
                        expected.clients(capacity).merge(clients, requests);
                        expected.keys(capacity).merge(keys, requests);
                    }
                    case 2 -> {
                        assertThat(second.maxClientCount(capacity)).isEqualTo(expected.clients(capacity).maxCount());
                        assertThat(second.maxKeyCount(capacity)).isEqualTo(expected.keys(capacity).maxCount());
                    }
                    case 3 -> assertSame(second, expected, capacity);
                    default -> {
                        second.settle();
                        assertStored(second, expected);
                    }
                }
            }
            assertThat(second.maxClientCount(capacity)).isEqualTo(expected.clients(capacity).maxCount());
            second.settle();
            assertStored(second, expected);
            assertSame(second, expected, capacity);
        }
        assertThat(kept).as("summaries only kept").isGreaterThan(RUNS / 4);
    }

    /** What the second held before the change: its sketches built at the first merge, or first read, from the stored counters. */
    private static final class Straightforward {
        List<FloodState.Counter> storedClients = new ArrayList<>();
        long storedClientTotal;
        List<FloodState.Counter> storedKeys = new ArrayList<>();
        long storedKeyTotal;
        SpaceSaving clients;
        SpaceSaving keys;

        SpaceSaving clients(int capacity) {
            if (clients == null) {
                clients = new SpaceSaving(capacity);
                clients.merge(FloodState.Counter.toHitters(storedClients), storedClientTotal);
            }
            return clients;
        }

        SpaceSaving keys(int capacity) {
            if (keys == null) {
                keys = new SpaceSaving(capacity);
                keys.merge(FloodState.Counter.toHitters(storedKeys), storedKeyTotal);
            }
            return keys;
        }
    }

    private static void restore(FloodState.Second second, Straightforward expected, SplittableRandom random, int capacity) {
        SpaceSaving clients = sketchOf(random, capacity, 1 + random.nextInt(30));
        SpaceSaving keys = sketchOf(random, capacity, random.nextInt(30));
        second.clients = FloodState.Counter.of(clients.counters());
        second.clientTotal = clients.total();
        second.requestKeys = FloodState.Counter.of(keys.counters());
        second.requestKeyTotal = keys.total();
        expected.storedClients = FloodState.Counter.of(clients.counters());
        expected.storedClientTotal = clients.total();
        expected.storedKeys = FloodState.Counter.of(keys.counters());
        expected.storedKeyTotal = keys.total();
    }

    /** A partition's summary: mostly a sketch's own list (smaller, as large as or larger than the capacity), or a plain list. */
    private static List<HeavyHitter> summary(SplittableRandom random, int capacity) {
        int sourceCapacity = Math.max(1, capacity - 2 + random.nextInt(5));
        SpaceSaving source = sketchOf(random, sourceCapacity, random.nextInt(40));
        if (random.nextInt(4) > 0) {
            return source.counters();
        }
        List<HeavyHitter> plain = new ArrayList<>(source.counters());
        if (!plain.isEmpty() && random.nextBoolean()) {
            HeavyHitter again = plain.get(random.nextInt(plain.size()));
            plain.add(new HeavyHitter(again.getKey(), 1 + random.nextLong(5), 0L));
        }
        return plain;
    }

    /** Few distinct keys, so the sketch evicts and counts tie. */
    private static SpaceSaving sketchOf(SplittableRandom random, int capacity, int adds) {
        SpaceSaving s = new SpaceSaving(capacity);
        for (int i = 0; i < adds; i++) {
            s.add("198.18.0." + random.nextInt(capacity + 6), 1 + random.nextInt(3));
        }
        return s;
    }

    private static long total(List<HeavyHitter> hitters) {
        return hitters.stream().mapToLong(HeavyHitter::getCount).sum();
    }

    private static void assertSame(FloodState.Second second, Straightforward expected, int capacity) {
        assertThat(second.clientSketch(capacity).counters()).isEqualTo(expected.clients(capacity).counters());
        assertThat(second.clientSketch(capacity).total()).isEqualTo(expected.clients(capacity).total());
        assertThat(second.keySketch(capacity).counters()).isEqualTo(expected.keys(capacity).counters());
        assertThat(second.keySketch(capacity).total()).isEqualTo(expected.keys(capacity).total());
    }

    /** The stored form after settle: what the straightforward second would store (its sketches, or the counters it was restored with). */
    private static void assertStored(FloodState.Second second, Straightforward expected) {
        List<HeavyHitter> clients = expected.clients != null ? expected.clients.counters() : FloodState.Counter.toHitters(expected.storedClients);
        long clientTotal = expected.clients != null ? expected.clients.total() : expected.storedClientTotal;
        List<HeavyHitter> keys = expected.keys != null ? expected.keys.counters() : FloodState.Counter.toHitters(expected.storedKeys);
        long keyTotal = expected.keys != null ? expected.keys.total() : expected.storedKeyTotal;
        assertThat(FloodState.Counter.toHitters(second.clients)).isEqualTo(clients);
        assertThat(second.clientTotal).isEqualTo(clientTotal);
        assertThat(FloodState.Counter.toHitters(second.requestKeys)).isEqualTo(keys);
        assertThat(second.requestKeyTotal).isEqualTo(keyTotal);
    }
}
