package io.hcwatch.detect.flood;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.alert.Notification;
import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.config.Settings;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.Summary;
import io.hcwatch.traffic.TrafficCombiner;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FloodMonitorTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private final MonitorHarness<FloodState, ClientSummary> monitor = new MonitorHarness<>(new FloodDetection(FloodSettings.from(Settings.defaults())),
            Settings.defaults());
    private final Monitored<FloodState> state = newScope();

    private Monitored<FloodState> newScope() {
        return monitor.newKey("haproxy/hc-ping", new ClientSummary(new ClientTraffic("haproxy", "hc-ping", null, 0L, 0L, 0L, List.of(), 0L,
                List.of(), 0L)));
    }
    private final List<Notification> sent = new ArrayList<>();

    private static HaproxyRequest request(String host, String client, String uri, long ts, String termination) {
        return HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(ts)).setHost(host)
                .setClientIp(client).setClientPort(40000).setFrontend("hc-ping").setBackend("be").setServer("s1")
                .setTerminationState(termination).setHttpMethod("GET").setHttpUri(uri).setStatusCode(200).build();
    }

    /** Runs {@code seconds} of traffic through the per-partition combiner, then the monitor, second by second. */
    private void run(int seconds, int backgroundClientsPerSecond, int floodPerSecond, String flooder, String termination) {
        TrafficCombiner combiner = new TrafficCombiner(256);
        int client = 0;
        for (int s = 0; s < seconds; s++) {
            long t = T0 + s * 1000L;
            for (int i = 0; i < backgroundClientsPerSecond; i++) {
                client++;
                combiner.addHaproxy(request(i % 2 == 0 ? "lb1" : "lb2", "198.51." + (client / 250 % 250) + "." + (client % 250),
                        "/api/items/" + (client % 97), t + i % 1000, "--"));
            }
            for (int i = 0; i < floodPerSecond; i++) {
                combiner.addHaproxy(request(i % 2 == 0 ? "lb1" : "lb2", flooder.replace("X", Integer.toHexString(i % 4096)),
                        "/v1/devices/6f1c2d9e-1b2a-4c3d-9e8f-0a1b2c3d4e5f/ping", t + i % 1000, termination));
            }
            for (Summary r : combiner.drainBefore(t + 1000)) {
                if (r instanceof ClientSummary c) {
                    sent.addAll(monitor.feed(state, c, c.eventTime()));
                }
            }
        }
    }

    @Test
    void anIpv6Slash64RotatingAddressesIsOneClientAndIsNamedToBlock() {
        run(12, 400, 300, "2001:db8:77:1::X", "PT");
        List<Notification> floods = sent.stream().filter(Notification::firing).toList();
        assertThat(floods).singleElement().satisfies(n -> {
            assertThat(n.scope().client()).isEqualTo("2001:db8:77:1::/64");
            assertThat(n.scope().frontend()).isEqualTo("hc-ping");
            assertThat(n.details()).containsEntry("block", "2001:db8:77:1::/64").containsEntry("tarpit_in_use", "true");
            assertThat(n.details().get("hosts")).contains("lb1=").contains("lb2=");
            assertThat(Long.parseLong(n.details().get("rate_rps"))).isBetween(100L, 310L);
        });
    }

    @Test
    void busyButEvenTrafficIsNotAFlood() {
        run(30, 2000, 0, "unused", "--");
        assertThat(sent).isEmpty();
    }

    @Test
    void aClientBelowTheRateIsNotAFloodEvenWithALargeShare() {
        run(30, 20, 40, "192.0.2.X", "--");
        assertThat(sent).isEmpty();
    }

    @Test
    void aClientJustOverBothThresholdsFiresAndOneJustUnderDoesNot() {
        // 101 req/s of 501: 20.2% and over 100 req/s; the evaluation's shortcut must not hide it
        run(12, 400, 101, "192.0.2.9", "--");
        assertThat(sent).filteredOn(Notification::firing).singleElement()
                .satisfies(n -> assertThat(n.scope().client()).isEqualTo("192.0.2.9"));

        sent.clear();
        Monitored<FloodState> fresh = newScope();
        TrafficCombiner combiner = new TrafficCombiner(256);
        for (int s = 0; s < 12; s++) {
            long t = T0 + s * 1000L;
            for (int i = 0; i < 400; i++) {
                combiner.addHaproxy(request("lb1", "198.51.100." + (i % 250), "/api/items/" + i, t + i, "--"));
            }
            for (int i = 0; i < 99; i++) {
                combiner.addHaproxy(request("lb1", "192.0.2.9", "/api/items/x", t + i, "--"));
            }
            for (Summary r : combiner.drainBefore(t + 1000)) {
                if (r instanceof ClientSummary c) {
                    sent.addAll(monitor.feed(fresh, c, c.eventTime()));
                }
            }
        }
        assertThat(sent).isEmpty();
    }
}
