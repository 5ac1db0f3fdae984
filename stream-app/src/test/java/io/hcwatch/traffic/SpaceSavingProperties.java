package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Space-Saving's guarantees against exact counts, over streams of few distinct keys so keys are
 * evicted and come back: every counter overestimates by at most its error, the error is at most
 * the floor, a key whose true count exceeds the floor is listed, and while the keys fit the counts
 * are exact.
 */
class SpaceSavingProperties {

    @Property(tries = 500)
    void guaranteesHoldAgainstExactCounts(@ForAll @Size(max = 3000) List<@IntRange(min = 0, max = 60) Integer> stream,
            @ForAll @IntRange(min = 1, max = 40) int capacity) {
        SpaceSaving sketch = new SpaceSaving(capacity);
        Map<String, Long> exact = new HashMap<>();
        for (int k : stream) {
            String key = "10.0.0." + k;
            sketch.add(key, 1);
            exact.merge(key, 1L, Long::sum);
        }
        List<HeavyHitter> listed = sketch.all();
        assertThat(sketch.total()).isEqualTo(stream.size());
        assertThat(listed).hasSize(Math.min(capacity, exact.size()));
        assertThat(listed).extracting(HeavyHitter::getKey).doesNotHaveDuplicates();
        long floor = sketch.floor();
        Map<String, Long> counted = new HashMap<>();
        for (HeavyHitter h : listed) {
            long truth = exact.get(h.getKey());
            assertThat(h.getCount()).as(h.getKey()).isGreaterThanOrEqualTo(truth);
            assertThat(h.getCount() - h.getError()).as(h.getKey()).isLessThanOrEqualTo(truth);
            assertThat(h.getError()).isLessThanOrEqualTo(floor);
            counted.put(h.getKey(), h.getCount());
        }
        assertThat(counted.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(stream.size());
        exact.forEach((key, truth) -> {
            if (truth > floor) {
                assertThat(counted).as("a key above the floor is listed").containsKey(key);
            }
        });
        if (exact.size() <= capacity) {
            assertThat(counted).isEqualTo(exact);
        }
    }

    /**
     * Merging: sketches of consecutive slices of a stream, merged as the flood monitor merges a
     * window's seconds. Totals add up and every guaranteed count is a lower bound on the true count
     * (what merge promises); counts are not checked as upper bounds, which merge does not promise.
     */
    @Property(tries = 300)
    void mergedGuaranteedCountsAreLowerBounds(@ForAll @Size(max = 2000) List<@IntRange(min = 0, max = 40) Integer> stream,
            @ForAll @IntRange(min = 1, max = 12) int capacity, @ForAll @IntRange(min = 1, max = 8) int slices) {
        SpaceSaving merged = new SpaceSaving(capacity);
        Map<String, Long> exact = new HashMap<>();
        int per = Math.max(1, (stream.size() + slices - 1) / slices);
        for (int from = 0; from < stream.size(); from += per) {
            SpaceSaving slice = new SpaceSaving(capacity);
            for (int k : stream.subList(from, Math.min(stream.size(), from + per))) {
                String key = "10.0.0." + k;
                slice.add(key, 1);
                exact.merge(key, 1L, Long::sum);
            }
            merged.merge(slice.counters(), slice.total());
        }
        assertThat(merged.total()).isEqualTo(stream.size());
        assertThat(merged.size()).isLessThanOrEqualTo(capacity);
        for (HeavyHitter h : merged.all()) {
            assertThat(h.getCount() - h.getError()).as(h.getKey()).isLessThanOrEqualTo(exact.get(h.getKey()));
        }
    }
}
