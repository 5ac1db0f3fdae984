package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.alert.MonitorHarness;
import io.hcwatch.alert.Monitored;
import io.hcwatch.avro.internal.ClientTraffic;
import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.flood.FloodDetection;
import io.hcwatch.detect.flood.FloodSettings;
import io.hcwatch.detect.flood.FloodState;
import io.hcwatch.input.ClientSummary;
import io.hcwatch.input.Summary;
import io.hcwatch.topology.TopologyFactory;
import io.hcwatch.traffic.TrafficCombiner;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client scope's parts written from its live state ({@link FloodEncoder}) are, name for name, in
 * order and byte for byte, the parts its tree cut by {@link FloodParts} gives ({@link TreeParts}):
 * over every second of two minutes of a frontend's clients, a flood among them, and over what an
 * earlier release stored.
 */
class FloodEncoderTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private final MonitoredCodec<FloodState> whole = TopologyFactory.floodCodec();
    private final TreeParts<FloodState> tree = new TreeParts<>(whole, new FloodParts());
    private final FloodEncoder direct = new FloodEncoder(whole);
    private final MonitorHarness<FloodState, ClientSummary> monitor = new MonitorHarness<>(
            new FloodDetection(FloodSettings.from(Settings.defaults())), Settings.defaults());

    @Test
    void everySecondOfAFrontendsClientsWithAFloodIsWrittenAsItsTreeIsCut() {
        Monitored<FloodState> scope = monitor.newKey("haproxy/hc-ping", new ClientSummary(new ClientTraffic("haproxy", "hc-ping", null,
                0L, 0L, 0L, List.of(), 0L, List.of(), 0L)));
        TrafficCombiner combiner = new TrafficCombiner(256);
        int client = 0;
        int compared = 0;
        for (int s = 0; s < 120; s++) {
            long t = T0 + s * 1000L;
            for (int i = 0; i < 300; i++) {
                client++;
                combiner.addHaproxy(request(i % 2 == 0 ? "lb1" : "lb2", "198.51." + (client / 250 % 250) + "." + (client % 250),
                        "/api/items/" + (client % 97), t + i * 3, "--"));
            }
            for (int i = 0; s >= 40 && s < 80 && i < 400; i++) {
                combiner.addHaproxy(request("lb1", "203.0.113.7", "/v1/ping", t + i * 2, "PT"));
            }
            for (Summary r : combiner.drainBefore(t + 1000)) {
                if (r instanceof ClientSummary c) {
                    monitor.feed(scope, c, c.eventTime());
                }
            }
            assertSameParts(scope);
            compared++;
        }
        assertThat(compared).isEqualTo(120);
        assertThat(scope.state.seconds).hasSizeGreaterThan(10);
    }

    @Test
    void aClientScopeAnEarlierReleaseStoredIsWrittenAsItsTreeIsCut() {
        assertSameParts(whole.decode(PartedMonitoredCodecTest.golden("flood-haproxy-www.json")));
    }

    private void assertSameParts(Monitored<FloodState> m) {
        Map<String, byte[]> expected = tree.encode(m);
        Map<String, byte[]> actual = direct.encode(m);
        assertThat(List.copyOf(actual.keySet())).as("part names, in the order they are written").isEqualTo(List.copyOf(expected.keySet()));
        expected.forEach((name, bytes) -> assertThat(actual.get(name)).as("part '%s'", name).isEqualTo(bytes));
    }

    private static HaproxyRequest request(String host, String client, String uri, long ts, String termination) {
        return HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(Instant.ofEpochMilli(ts)).setHost(host)
                .setClientIp(client).setClientPort(40000).setFrontend("hc-ping").setBackend("be").setServer("s1")
                .setTerminationState(termination).setHttpMethod("GET").setHttpUri(uri).setStatusCode(200).build();
    }
}
