package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.List;
import java.util.Random;
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

    @Test
    void listsLargestFirst() {
        SpaceSaving s = new SpaceSaving(3);
        s.add("x", 3);
        s.add("y", 7);
        s.add("z", 5);
        assertThat(s.all()).extracting(HeavyHitter::getKey).isEqualTo(List.of("y", "z", "x"));
    }
}
