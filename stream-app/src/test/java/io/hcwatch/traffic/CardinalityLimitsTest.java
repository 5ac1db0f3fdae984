package io.hcwatch.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hcwatch.config.Settings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CardinalityLimitsTest {

    private static final long T0 = 1_772_548_200_000L;
    private static final long HOUR = 3_600_000L;

    private final CardinalityLimits limits = new CardinalityLimits(new CardinalityLimits.Limits(3, 2, 2, 1, HOUR));

    @Test
    void pastTheLimitANewTargetGroupIsRefusedAndKnownOnesGoOn() {
        assertThat(limits.targetGroup("a", "i-1", T0)).isNull();
        assertThat(limits.targetGroup("b", "i-1", T0)).isNull();
        assertThat(limits.targetGroup("c", null, T0)).isNull();
        assertThat(limits.targetGroup("d", "i-1", T0 + 1)).isEqualTo(CardinalityLimits.TARGET_GROUP);
        assertThat(limits.targetGroup("a", "i-1", T0 + 2)).isNull();
        assertThat(limits.targetGroups()).isEqualTo(3);
    }

    @Test
    void targetsAreCountedPerGroup() {
        assertThat(limits.targetGroup("a", "i-1", T0)).isNull();
        assertThat(limits.targetGroup("a", "i-2", T0)).isNull();
        assertThat(limits.targetGroup("a", "i-3", T0)).isEqualTo(CardinalityLimits.TARGET);
        assertThat(limits.targetGroup("a", "i-2", T0 + 1)).isNull();
        assertThat(limits.targetGroup("b", "i-3", T0)).isNull();
    }

    @Test
    void aNameUnseenForTheIdleTimeFreesItsPlace() {
        limits.targetGroup("a", null, T0);
        limits.targetGroup("b", null, T0 + 10);
        limits.targetGroup("c", null, T0 + 20);
        // a was last seen an hour ago exactly: gone; b and c are not
        assertThat(limits.targetGroup("d", null, T0 + HOUR)).isNull();
        assertThat(limits.targetGroup("e", null, T0 + HOUR)).isEqualTo(CardinalityLimits.TARGET_GROUP);
        assertThat(limits.targetGroup("e", null, T0 + HOUR + 10)).isNull();
    }

    @Test
    void seeingANameAgainKeepsItAndItsTargets() {
        limits.targetGroup("a", "i-1", T0);
        limits.targetGroup("b", null, T0);
        limits.targetGroup("c", null, T0);
        limits.targetGroup("a", "i-1", T0 + HOUR - 1);
        // b and c expire at T0 + 1 h; a does not, and its target i-1 is still one of its two
        assertThat(limits.targetGroup("x", null, T0 + HOUR)).isNull();
        assertThat(limits.targetGroup("y", null, T0 + HOUR)).isNull();
        assertThat(limits.targetGroup("z", null, T0 + HOUR)).isEqualTo(CardinalityLimits.TARGET_GROUP);
        assertThat(limits.targetGroup("a", "i-2", T0 + HOUR)).isNull();
        assertThat(limits.targetGroup("a", "i-3", T0 + HOUR)).isEqualTo(CardinalityLimits.TARGET);
    }

    @Test
    void hostsAndFrontendsHaveTheirOwnLimits() {
        assertThat(limits.host("lb1", "fe-web", T0)).isNull();
        assertThat(limits.host("lb1", "fe-api", T0)).isEqualTo(CardinalityLimits.FRONTEND);
        assertThat(limits.host("lb2", null, T0)).isNull();
        assertThat(limits.host("lb3", "fe-web", T0)).isEqualTo(CardinalityLimits.HOST);
        // hosts do not use up target groups
        assertThat(limits.targetGroup("a", null, T0)).isNull();
    }

    @Test
    void twoTargetsWhoseHashesCollideCountAsOneSoTheGroupTakesOneMore() {
        // i-1 and i-2 collide on purpose: i-2 is taken for i-1, admitted without using up a place
        CardinalityLimits colliding = new CardinalityLimits(new CardinalityLimits.Limits(3, 2, 2, 1, HOUR),
                name -> name.equals("i-2") ? CardinalityLimits.hash("i-1") : CardinalityLimits.hash(name));
        assertThat(colliding.targetGroup("a", "i-1", T0)).isNull();
        assertThat(colliding.targetGroup("a", "i-2", T0)).isNull();
        assertThat(colliding.targetGroup("a", "i-3", T0)).isNull();
        assertThat(colliding.targetGroup("a", "i-4", T0)).isEqualTo(CardinalityLimits.TARGET);
    }

    @Test
    void targetNamesWithAnIdOrATimestampGetNoCollisionsInAMillionNames() {
        java.util.Set<Long> hashes = new java.util.HashSet<>();
        for (int i = 0; i < 500_000; i++) {
            hashes.add(CardinalityLimits.hash("i-0" + Integer.toHexString(0x5a000000 + i * 7919)));
            hashes.add(CardinalityLimits.hash("10.0." + (i >> 8 & 255) + "." + (i & 255) + ":" + (8000 + i / 65536)));
        }
        assertThat(hashes).hasSize(1_000_000);
    }

    /**
     * Random traffic against a plain model of the rules (a map of names to the time each was last
     * seen, and of each name's members; a new name first frees every place idle for the hour): the
     * same answer for every record. Time only moves forward here, as the model assumes.
     */
    @Test
    void admitsAndRefusesAsAPlainMapOfNamesWould() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(18);
        CardinalityLimits.Limits small = new CardinalityLimits.Limits(20, 6, 2, 1, HOUR);
        CardinalityLimits limits = new CardinalityLimits(small);
        Map<String, Long> groupSeen = new java.util.HashMap<>();
        Map<String, Map<String, Long>> targetSeen = new java.util.HashMap<>();
        long now = T0;
        int refused = 0;
        for (int i = 0; i < 200_000; i++) {
            now += random.nextLong(0, 2_000);
            String group = "tg-" + random.nextInt(30);
            String target = random.nextInt(10) == 0 ? null : "i-" + random.nextInt(12);
            String expected = null;
            long t = now;
            if (!groupSeen.containsKey(group)) {
                groupSeen.values().removeIf(seen -> t - seen >= HOUR);
                targetSeen.keySet().retainAll(groupSeen.keySet());
                if (groupSeen.size() >= small.targetGroups()) {
                    expected = CardinalityLimits.TARGET_GROUP;
                }
            }
            if (expected == null) {
                groupSeen.put(group, t);
                Map<String, Long> members = targetSeen.computeIfAbsent(group, g -> new java.util.HashMap<>());
                if (target != null && !members.containsKey(target)) {
                    members.values().removeIf(seen -> t - seen >= HOUR);
                    if (members.size() >= small.targetsPerGroup()) {
                        expected = CardinalityLimits.TARGET;
                    }
                }
                if (expected == null && target != null) {
                    members.put(target, t);
                }
            }
            refused += expected == null ? 0 : 1;
            assertThat(limits.targetGroup(group, target, now)).as("record %d: %s %s", i, group, target).isEqualTo(expected);
        }
        assertThat(refused).as("records refused").isBetween(1_000, 150_000);
    }

    @Test
    void theLimitsComeFromTheSettingsAndMustBePositive() {
        CardinalityLimits.Limits defaults = CardinalityLimits.Limits.from(Settings.defaults());
        assertThat(defaults.targetGroups()).isEqualTo(100_000);
        assertThat(defaults.idleMillis()).isEqualTo(6 * HOUR);
        assertThatThrownBy(() -> CardinalityLimits.Limits.from(Settings.defaults().with(Map.of("limits.hosts", "0"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limits");
    }
}
