package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.Notification;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.fleet.FleetMonitor;
import io.hcwatch.detect.fleet.FleetState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** State restored from its changelog must behave exactly like the state that was written. */
class JsonStateCodecTest {

    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();

    private static HealthCheckResult check(int target, long ts, boolean ok) {
        return HealthCheckResult.newBuilder()
                .setTs(Instant.ofEpochMilli(ts)).setSource("alb").setTargetGroup("tg").setTarget("i-" + target)
                .setAz("us-east-1" + "abc".charAt(target % 3)).setOutcome(ok ? CheckOutcome.pass : CheckOutcome.timeout)
                .setLatencyMs(ok ? 150 + target : 2001).setState(ok ? TargetState.healthy : TargetState.unhealthy)
                .setReason(ok ? null : "Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setTimeoutMs(2000).setIntervalMs(10_000).setHealthyThreshold(3)
                        .setUnhealthyThreshold(2).setPath("/health").build())
                .build();
    }

    @Test
    void aRestoredFleetStateRaisesTheSameAlertsAsTheOriginal() {
        FleetMonitor monitor = new FleetMonitor(Settings.defaults());
        FleetState original = monitor.newState("tg");
        for (long t = T0; t < T0 + 90_000; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                monitor.onCheck(original, check(i, t + i, t < T0 + 60_000 || i % 2 == 1));
            }
        }
        JsonStateCodec<FleetState> codec = new JsonStateCodec<>(FleetState.class);
        byte[] bytes = codec.encode(original);
        FleetState restored = codec.decode(bytes);
        assertThat(codec.encode(restored)).isEqualTo(bytes);

        List<String> fromOriginal = new ArrayList<>();
        List<String> fromRestored = new ArrayList<>();
        for (long t = T0 + 90_000; t < T0 + 240_000; t += 10_000) {
            for (int i = 0; i < 12; i++) {
                HealthCheckResult r = check(i, t + i, t >= T0 + 150_000 || i % 2 == 1);
                monitor.onCheck(original, r).forEach(n -> fromOriginal.add(describe(n)));
                monitor.onCheck(restored, r).forEach(n -> fromRestored.add(describe(n)));
            }
        }
        assertThat(fromOriginal).anyMatch(d -> d.startsWith("correlated_failure/tg resolved"));
        assertThat(fromRestored).isEqualTo(fromOriginal);
    }

    private static String describe(Notification n) {
        return n.dedupKey() + " " + (n.firing() ? "firing " + n.severity() : "resolved") + " " + n.alertId();
    }
}
