package io.hcwatch.detect.slots;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.Severity;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.HostInput;
import io.hcwatch.input.LoadBalancerConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlotMonitorTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    // resolves follow the clear steps alone here; the cool-down is the lifecycle's (AlertBookTest)
    private final MonitorHarness<HostState, HostInput> monitor = new MonitorHarness<>(new SlotDetection(SlotSettings.from(Settings.defaults())),
            Settings.defaults().with(java.util.Map.of("alert.cool-down", "0s")));
    private final Monitored<HostState> host = monitor.newKey("lb1", null);
    private final List<Notification> sent = new ArrayList<>();

    private HaproxyTraffic second(long t, int feconn, Map<String, Long> terminations, long tarpitMs) {
        long waited = terminations.getOrDefault("sQ", 0L) + terminations.getOrDefault("PT", 0L);
        return new HaproxyTraffic("lb1", "hc-ping", t, 500L, feconn, feconn + 100, 0, 0L, tarpitMs,
                new HashMap<>(terminations), new ArrayList<>(), new HashMap<>(), tarpitMs, waited, new ArrayList<>());
    }

    private List<Notification> traffic(HaproxyTraffic t) {
        return monitor.feed(host, new FrontendSummary(t), t.getBucketStart());
    }

    private void config(LbConfig c) {
        sent.addAll(monitor.feed(host, new LoadBalancerConfig(c), c.getTs().toEpochMilli()));
    }

    private void frontendMaxconn(int maxconn) {
        config(LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId("lb1/hc-ping")
                .setHost("lb1").setFrontend("hc-ping").setMaxconn(maxconn).setTs(Instant.ofEpochMilli(T0)).build());
    }

    @Test
    void warnsWhenSessionsStayAboveEightyPercentOfMaxconnForTenSeconds() {
        frontendMaxconn(2000);
        for (int s = 0; s < 9; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, 1700, Map.of("--", 500L), 0)));
        }
        assertThat(sent).isEmpty();
        sent.addAll(traffic(second(T0 + 9_000, 1750, Map.of("--", 500L), 0)));
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.WARNING);
            assertThat(n.dedupKey()).isEqualTo("socket_slot_exhaustion/lb1/hc-ping");
            assertThat(n.details()).containsEntry("maxconn", "2000").containsEntry("maxconn_inferred", "false");
        });
    }

    @Test
    void aMaxconnLearnedAfterTheTrafficItLimitsJudgesTheSecondsAlreadyHeld() {
        for (int s = 0; s < 12; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, 1700, Map.of("--", 500L), 0)));
        }
        assertThat(sent).as("sessions that vary are no sign of a limit while none is known").isEmpty();
        frontendMaxconn(2000);
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.firing()).isTrue();
            assertThat(n.details()).containsEntry("maxconn", "2000").containsEntry("maxconn_inferred", "false");
        });
    }

    @Test
    void aShortSpikeDoesNotWarn() {
        frontendMaxconn(2000);
        for (int s = 0; s < 30; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, s % 6 == 0 ? 1900 : 600, Map.of("--", 500L), 0)));
        }
        assertThat(sent).isEmpty();
    }

    @Test
    void tarpitAndQueueTimeoutsMakeItCriticalWithTheSocketsHeld() {
        for (int s = 0; s < 12; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, 2600, Map.of("PT", 300L, "sQ", 5L, "--", 195L), 300_000)));
        }
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(n.details()).containsEntry("maxconn", "2600").containsEntry("maxconn_inferred", "true")
                    .containsEntry("tarpit_share", "60%").containsEntry("tarpit_sockets_held", "300");
        });
    }

    @Test
    void theProcessLimitIsOneAlertPerHostNotOnePerFrontend() {
        config(LbConfig.newBuilder().setKind(ConfigKind.haproxy_process).setId("lb1")
                .setHost("lb1").setMaxconn(4000).setTs(Instant.ofEpochMilli(T0)).build());
        for (int s = 0; s < 12; s++) {
            for (String fe : new String[] {"web", "api"}) {
                sent.addAll(traffic(new HaproxyTraffic("lb1", fe, T0 + s * 1000L, 300L, 500, 3500, 0, 0L, 0L,
                        new HashMap<>(Map.of("--", 300L)), new ArrayList<>(), new HashMap<>(), 0L, 0L, new ArrayList<>())));
            }
        }
        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.dedupKey()).isEqualTo("socket_slot_exhaustion/lb1/process");
            assertThat(n.scope().frontend()).isNull();
            assertThat(n.details()).containsEntry("actconn", "3500").containsEntry("process_maxconn", "4000");
        });
    }

    @Test
    void resolvesAfterTwoClearStepsOnceSessionsDrop() {
        frontendMaxconn(1000);
        for (int s = 0; s < 15; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, 900, Map.of("--", 500L), 0)));
        }
        for (int s = 15; s < 60; s++) {
            sent.addAll(traffic(second(T0 + s * 1000L, 100, Map.of("--", 500L), 0)));
        }
        assertThat(sent).extracting(Notification::firing).containsExactly(true, false);
    }
}
