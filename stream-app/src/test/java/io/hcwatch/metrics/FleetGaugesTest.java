package io.hcwatch.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.detect.fleet.FleetSettings;
import io.hcwatch.detect.fleet.FleetState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetGaugesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final FleetGauges gauges = new FleetGauges(registry, 60_000, 2);

    private long meters(String targetGroup) {
        return registry.getMeters().stream().filter(m -> targetGroup.equals(m.getId().getTag("target_group"))).count();
    }

    private double dropped() {
        return registry.get(FleetGauges.SERIES_DROPPED).counter().count();
    }

    @Test
    void pastTheSeriesLimitATargetGroupGetsNoGaugesAndEveryUpdateOfItIsCountedAsDropped() {
        for (String tg : List.of("a", "b", "c")) {
            gauges.publish(tg, FleetState.create(tg, FleetSettings.defaults()), 1_000, List.of());
        }
        assertThat(meters("a")).isEqualTo(8);
        assertThat(meters("b")).isEqualTo(8);
        assertThat(meters("c")).isZero();
        assertThat(dropped()).isEqualTo(1);
        gauges.publish("c", FleetState.create("c", FleetSettings.defaults()), 2_000, List.of());
        assertThat(meters("c")).isZero();
        assertThat(dropped()).isEqualTo(2);
        // a group that goes frees its place: the next one gets gauges
        gauges.forgetTargetGroup("a");
        assertThat(meters("a")).isZero();
        gauges.publish("c", FleetState.create("c", FleetSettings.defaults()), 3_000, List.of());
        assertThat(meters("c")).isEqualTo(8);
    }
}
