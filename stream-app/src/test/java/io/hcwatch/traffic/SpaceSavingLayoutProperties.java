package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HeavyHitter;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The sketch's counters as slots of parallel arrays count, evict, merge and list exactly as the
 * counter objects they replaced ({@link CounterObjectSpaceSaving}): the same counters in the same
 * order, the same top and floor, after any mix of unit adds (an access-log line), weighted adds
 * (slot-milliseconds), merges of another sketch's counters and merges of decoded lists.
 */
class SpaceSavingLayoutProperties {

    @Property(tries = 400)
    void slotsBehaveAsTheCounterObjectsDid(@ForAll @Size(max = 1500) List<@IntRange(min = 0, max = 999) Integer> ops,
            @ForAll @IntRange(min = 1, max = 40) int capacity, @ForAll @IntRange(min = 2, max = 200) int keys) {
        SpaceSaving slots = new SpaceSaving(capacity);
        CounterObjectSpaceSaving objects = new CounterObjectSpaceSaving(capacity);
        SpaceSaving otherSlots = new SpaceSaving(capacity);
        CounterObjectSpaceSaving otherObjects = new CounterObjectSpaceSaving(capacity);
        int step = 0;
        for (int op : ops) {
            String key = "10.0." + (op * 7919 % keys);
            int kind = op % 10;
            if (kind < 6) {
                slots.add(key, 1);
                objects.add(key, 1);
            } else if (kind < 8) {
                slots.add(key, op % 5 + 1, op % 3);
                objects.add(key, op % 5 + 1, op % 3);
            } else if (kind == 8) {
                otherSlots.add(key, 1);
                otherObjects.add(key, 1);
                if (op % 4 == 0) {
                    slots.merge(otherSlots.counters(), otherSlots.total() + 3);
                    objects.merge(otherObjects.counters(), otherObjects.total() + 3);
                    otherSlots = new SpaceSaving(capacity);
                    otherObjects = new CounterObjectSpaceSaving(capacity);
                }
            } else {
                List<HeavyHitter> decoded = new ArrayList<>();
                for (int i = 0; i < op % 4; i++) {
                    decoded.add(new HeavyHitter("10.1." + ((op + i) % keys), (long) (op % 6 + 1), (long) (op % 2)));
                }
                slots.merge(decoded, 100);
                objects.merge(decoded, 100);
            }
            if (++step % 50 == 0) {
                assertSame(slots, objects, op % 7);
            }
        }
        assertSame(slots, objects, 5);
    }

    private static void assertSame(SpaceSaving slots, CounterObjectSpaceSaving objects, int n) {
        assertThat(listed(slots.counters())).isEqualTo(listed(objects.counters()));
        assertThat(listed(slots.top(n))).isEqualTo(listed(objects.top(n)));
        assertThat(listed(slots.all())).isEqualTo(listed(objects.all()));
        assertThat(slots.floor()).isEqualTo(objects.floor());
        assertThat(slots.total()).isEqualTo(objects.total());
        assertThat(slots.maxCount()).isEqualTo(objects.maxCount());
        assertThat(slots.size()).isEqualTo(objects.size());
    }

    private static List<String> listed(List<HeavyHitter> hitters) {
        return hitters.stream().map(h -> h.getKey() + "=" + h.getCount() + "/" + h.getError()).toList();
    }
}
