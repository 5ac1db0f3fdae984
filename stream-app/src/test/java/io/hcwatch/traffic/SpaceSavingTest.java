package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SpaceSavingTest {

    @Test
    void countsExactlyWhileKeysFitTheCapacity() {
        SpaceSaving s = new SpaceSaving(8);
        for (int i = 0; i < 5; i++) {
            for (int n = 0; n <= i; n++) {
                s.add("k" + i, 1);
            }
        }
        assertThat(s.top(2)).extracting(HeavyHitter::getKey, HeavyHitter::getCount, HeavyHitter::getError)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("k4", 5L, 0L), org.assertj.core.groups.Tuple.tuple("k3", 4L, 0L));
        assertThat(s.floor()).isZero();
        assertThat(s.total()).isEqualTo(15);
    }

    /** top(0) took the partial selection for a sketch of more than 8 counters and read run[-1]. */
    @Test
    void theTopNoneIsEmptyWhateverTheSketchHolds() {
        SpaceSaving s = new SpaceSaving(64);
        for (int i = 0; i < 40; i++) {
            s.add("k" + i, i + 1);
        }
        assertThat(s.top(0)).isEmpty();
        assertThat(new SpaceSaving(8).top(0)).isEmpty();
    }

    @Test
    void aMillionDistinctClientsStayWithinTheBoundAndThePlantedHeavyHitterIsNamed() {
        SpaceSaving s = new SpaceSaving(256);
        Random random = new Random(42);
        long planted = 0;
        for (int i = 0; i < 1_000_000; i++) {
            if (random.nextInt(10) == 0) {
                s.add("203.0.113.7", 1);
                planted++;
            }
            s.add("10." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255), 1);
        }
        assertThat(s.size()).isEqualTo(256);
        HeavyHitter top = s.top(1).get(0);
        assertThat(top.getKey()).isEqualTo("203.0.113.7");
        assertThat(top.getCount()).isGreaterThanOrEqualTo(planted);
        assertThat(top.getCount() - top.getError()).isLessThanOrEqualTo(planted);
        // the guarantee: the overestimate is bounded by the smallest counter
        assertThat(top.getError()).isLessThanOrEqualTo(s.floor());
    }

    @Test
    void mergingSketchesKeepsTheHeavyHitterAndTheTotal() {
        SpaceSaving a = new SpaceSaving(4);
        SpaceSaving b = new SpaceSaving(4);
        for (int i = 0; i < 100; i++) {
            a.add("heavy", 1);
            b.add("heavy", 1);
            a.add("a" + i, 1);
            b.add("b" + i, 1);
        }
        SpaceSaving merged = new SpaceSaving(4);
        merged.merge(a.all(), a.total());
        merged.merge(b.all(), b.total());
        assertThat(merged.total()).isEqualTo(400);
        assertThat(merged.top(1).get(0).getKey()).isEqualTo("heavy");
        assertThat(merged.top(1).get(0).getCount()).isGreaterThanOrEqualTo(200);
    }

    /**
     * Worked by hand: b (capacity 2) sees x twice, y four times, z three times; z evicts x (the
     * smallest, 2), so b lists y=4 and z=5 with error 2, and x's two occurrences hide in b's floor.
     * Merged with a (x five times), x counts 5 although it occurred 7 times: merge does not credit
     * b's floor to keys b does not list. Every guaranteed count (count - error) stays a lower bound.
     */
    @Test
    void mergeKeepsGuaranteedCountsButNotTheOtherSketchsFloor() {
        SpaceSaving a = new SpaceSaving(2);
        a.add("x", 5);
        SpaceSaving b = new SpaceSaving(2);
        b.add("x", 2);
        b.add("y", 4);
        b.add("z", 3);
        assertThat(b.counters()).containsExactlyInAnyOrder(new HeavyHitter("y", 4L, 0L), new HeavyHitter("z", 5L, 2L));
        assertThat(b.floor()).isEqualTo(4);

        SpaceSaving merged = new SpaceSaving(4);
        merged.merge(a.counters(), a.total());
        merged.merge(b.counters(), b.total());

        assertThat(merged.total()).isEqualTo(14);
        assertThat(merged.all()).containsExactly(new HeavyHitter("x", 5L, 0L), new HeavyHitter("z", 5L, 2L),
                new HeavyHitter("y", 4L, 0L));
        Map<String, Long> truth = Map.of("x", 7L, "y", 4L, "z", 3L);
        assertThat(merged.all()).allSatisfy(h ->
                assertThat(h.getCount() - h.getError()).as(h.getKey()).isLessThanOrEqualTo(truth.get(h.getKey())));
        assertThat(merged.all().get(0).getCount()).as("x: below its 7, b's floor not credited").isLessThan(truth.get("x"));
    }

    @Test
    void listsLargestFirst() {
        SpaceSaving s = new SpaceSaving(3);
        s.add("x", 3);
        s.add("y", 7);
        s.add("z", 5);
        assertThat(s.all()).extracting(HeavyHitter::getKey).isEqualTo(List.of("y", "z", "x"));
    }

    /** A few of a full sketch are picked without sorting it: the same counters, in the same order, ties by key. */
    @Test
    void topFewOfAFullSketchAreTheFirstOfAllOfItAndMaxCountIsTheFirst() {
        Random random = new Random(3);
        for (int round = 0; round < 50; round++) {
            SpaceSaving s = new SpaceSaving(64);
            // few distinct counts: many ties, which must fall by key as in the full sort
            for (int i = 0; i < 2_000; i++) {
                s.add("k" + random.nextInt(200), 1 + random.nextInt(3));
            }
            List<HeavyHitter> all = s.all();
            for (int n : new int[] {1, 2, 5, 7, 8, 9, 64, 100}) {
                assertThat(s.top(n)).as("top %d of round %d", n, round).isEqualTo(all.subList(0, Math.min(n, all.size())));
            }
            assertThat(s.maxCount()).isEqualTo(all.get(0).getCount());
        }
        assertThat(new SpaceSaving(4).maxCount()).isZero();
        assertThat(new SpaceSaving(4).top(5)).isEmpty();
    }

    /**
     * A sketch's own list ({@link SpaceSaving.Listed}) is merged with the hashes the sketch kept
     * instead of the keys' own: the same counters, in the same heap order, as merging a plain copy
     * of it, into sketches of every size around its own that also take plain lists, with keys in
     * common and evictions.
     */
    @Test
    void mergingASketchsOwnListGivesWhatMergingAPlainCopyGives() {
        Random random = new Random(30);
        for (int round = 0; round < 400; round++) {
            int capacity = 1 + random.nextInt(24);
            SpaceSaving viaList = new SpaceSaving(capacity);
            SpaceSaving viaCopy = new SpaceSaving(capacity);
            for (int part = 0; part < 6; part++) {
                SpaceSaving source = new SpaceSaving(Math.max(1, capacity - 4 + random.nextInt(9)));
                for (int i = random.nextInt(60); i > 0; i--) {
                    source.add("198.18." + random.nextInt(3) + "." + random.nextInt(capacity + 8), 1 + random.nextInt(3));
                }
                List<HeavyHitter> listed = source.counters();
                assertThat(listed).isInstanceOf(SpaceSaving.Listed.class);
                long requests = source.total() + random.nextInt(3);
                // a sketch's own lists and plain ones in turn: a key must be found whichever way it came in
                viaList.merge(random.nextInt(3) > 0 ? listed : new java.util.ArrayList<>(listed), requests);
                viaCopy.merge(new java.util.ArrayList<>(listed), requests);
                assertThat(viaList.counters()).as("round %d part %d", round, part).isEqualTo(viaCopy.counters());
                assertThat(viaList.total()).isEqualTo(viaCopy.total());
                assertThat(((SpaceSaving.Listed) listed).maxCount()).isEqualTo(source.maxCount());
            }
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SpaceSaving(2).counters().add(new HeavyHitter("k", 1L, 0L)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    /**
     * Which counter a key evicts, and so every count after it, follows from how the heap breaks
     * ties: a digest of the counters (in heap order), totals and floors of generated sketches (adds
     * with and without errors, merges, pools of keys from about the capacity to five times it),
     * pinned with the textbook swap-by-swap sift that the counts array beside the heap replaced.
     * Breaking a tie the other way in either sift changes it.
     */
    @Test
    void evictionsAndTiesAreThoseOfTheTextbookSift() {
        assertThat(digestOfGeneratedSketches()).isEqualTo(-7467133942708377842L);
    }

    private static long digestOfGeneratedSketches() {
        SplittableRandom random = new SplittableRandom(30);
        long digest = 17;
        for (int round = 0; round < 60; round++) {
            int capacity = 1 + random.nextInt(300);
            SpaceSaving s = new SpaceSaving(capacity);
            int pool = capacity + random.nextInt(4 * capacity + 8);
            for (int i = 0; i < 5_000; i++) {
                String key = "198.18." + random.nextInt(pool) / 256 + "." + random.nextInt(pool) % 256;
                switch (random.nextInt(8)) {
                    case 0 -> s.add(key, 1 + random.nextInt(5), random.nextInt(3));
                    case 1 -> {
                        SpaceSaving part = new SpaceSaving(1 + random.nextInt(capacity + 4));
                        for (int j = random.nextInt(40); j > 0; j--) {
                            part.add("198.18." + random.nextInt(pool) / 256 + "." + random.nextInt(pool) % 256, 1);
                        }
                        s.merge(part.counters(), part.total() + random.nextInt(3));
                    }
                    default -> s.add(key, 1);
                }
            }
            List<HeavyHitter> counters = s.counters();
            for (HeavyHitter h : counters) {
                digest = digest * 31 + h.getKey().hashCode();
                digest = digest * 31 + h.getCount();
                digest = digest * 31 + h.getError();
            }
            digest = digest * 31 + s.total();
            digest = digest * 31 + s.floor();
            digest = digest * 31 + s.maxCount();
        }
        return digest;
    }
}
