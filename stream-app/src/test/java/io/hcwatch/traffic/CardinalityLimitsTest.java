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
    void theLimitsComeFromTheSettingsAndMustBePositive() {
        CardinalityLimits.Limits defaults = CardinalityLimits.Limits.from(Settings.defaults());
        assertThat(defaults.targetGroups()).isEqualTo(100_000);
        assertThat(defaults.idleMillis()).isEqualTo(6 * HOUR);
        assertThatThrownBy(() -> CardinalityLimits.Limits.from(Settings.defaults().with(Map.of("limits.hosts", "0"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limits");
    }
}
