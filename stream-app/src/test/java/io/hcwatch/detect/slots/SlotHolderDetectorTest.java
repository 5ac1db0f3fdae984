package io.hcwatch.detect.slots;

import static io.hcwatch.detect.Judging.assertFinding;
import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.internal.HaproxyTraffic;
import io.hcwatch.avro.internal.HeavyHitter;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.config.Settings;
import io.hcwatch.detect.AlertType;
import io.hcwatch.detect.Finding;
import io.hcwatch.detect.Judging;
import io.hcwatch.detect.Severity;
import io.hcwatch.input.FrontendSummary;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.topology.TopologyFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * client_flood, reason slots: a client holding at least half (slots.holder-share) of a full
 * frontend's slot time over the 10s window floods it, however few requests it logs. Host lb1's
 * frontend fe_web logs one second of traffic each second from T0; slot time is given per client
 * as "203.0.113.77=9000 198.51.100.4=1000" (slot-milliseconds each second).
 */
class SlotHolderDetectorTest {

    private static final long T0 = Instant.parse("2026-03-03T10:00:00Z").toEpochMilli();
    private final SlotSettings settings = SlotSettings.from(Settings.defaults());
    private final SlotDetection detection = new SlotDetection(settings);
    private final SlotHolderDetector detector = new SlotHolderDetector(settings);
    private final HostState host = detection.newState("lb1", null);

    private void second(long at, int feconn, long waited, String holders) {
        List<HeavyHitter> hitters = new ArrayList<>();
        long slotMs = 0;
        for (String h : holders.trim().split(" +")) {
            String[] kv = h.split("=");
            long ms = Long.parseLong(kv[1]);
            hitters.add(new HeavyHitter(kv[0], ms, 0L));
            slotMs += ms;
        }
        long requests = 20;
        Map<String, Long> terminations = new HashMap<>(Map.of("--", requests - waited));
        if (waited > 0) {
            terminations.put("PT", waited);
        }
        detection.apply(host, new FrontendSummary(new HaproxyTraffic("lb1", "fe_web", at, requests, feconn, feconn + 5, 0, 0L, 0L,
                terminations, new ArrayList<>(), new HashMap<>(), slotMs, waited, hitters)), at);
    }

    private void maxconn(int maxconn) {
        detection.apply(host, new LoadBalancerConfig(LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId("lb1/fe_web").setHost("lb1")
                .setFrontend("fe_web").setMaxconn(maxconn).setTs(Instant.ofEpochMilli(T0)).build()), T0);
    }

    private List<Finding> judge(long now) {
        return Judging.judgePurely(detector, host, now, TopologyFactory.hostCodec());
    }

    @ParameterizedTest(name = "maxconn {0}, feconn {1}, holders {3} -> {4}: {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # maxconn | feconn | waited/s | slot-ms each second by client              | flooders                   | why
            200       | 200    | 5        | 203.0.113.77=180000 198.51.100.4=20000     | 203.0.113.77               | 90% of a full frontend's slot time
            200       | 200    | 5        | 203.0.113.77=100000 198.51.100.4=100000    | 203.0.113.77 198.51.100.4  | half each: both hold the frontend
            200       | 200    | 5        | 203.0.113.77=99000 198.51.100.4=101000     | 198.51.100.4               | just under half is not a flood
            200       | 100    | 5        | 203.0.113.77=180000 198.51.100.4=20000     | -                          | half the slots free: a slow client, not a flood
            -         | 200    | 5        | 203.0.113.77=180000 198.51.100.4=20000     | 203.0.113.77               | no maxconn known: flat while requests waited
            -         | 200    | 0        | 203.0.113.77=180000 198.51.100.4=20000     | -                          | no maxconn known and nothing waited
            """)
    void aClientHoldingMostOfAFullFrontendsSlotTime(Integer maxconn, int feconn, long waited, String holders, String flooders,
                                                    String why) {
        if (maxconn != null) {
            maxconn(maxconn);
        }
        for (int s = 0; s < 10; s++) {
            second(T0 + s * 1000L, feconn, waited, holders);
        }
        List<Finding> findings = judge(T0 + 9_000);
        assertThat(findings).as(why).extracting(f -> f.details().get("key"))
                .containsExactlyInAnyOrderElementsOf(flooders == null ? List.of() : List.of(flooders.split(" ")));
        assertThat(findings).allSatisfy(f -> {
            assertThat(f.type()).isEqualTo(AlertType.CLIENT_FLOOD);
            assertThat(f.details()).containsEntry("reason", "slots").containsEntry("maxconn_inferred", String.valueOf(maxconn == null));
        });
    }

    @Test
    void theFindingNamesTheClientItsShareAndTheSlotsItHolds() {
        maxconn(200);
        for (int s = 0; s < 10; s++) {
            second(T0 + s * 1000L, 200, 5, "203.0.113.77=186000 198.51.100.4=10000 192.0.2.9=4000");
        }
        assertThat(judge(T0 + 9_000)).singleElement().satisfies(f -> {
            assertFinding(f, AlertType.CLIENT_FLOOD, Severity.ERROR, "client_flood/lb1/fe_web/slots:203.0.113.77",
                    T0 - 1_000, T0 + 9_000);
            assertThat(f.scope().host()).isEqualTo("lb1");
            assertThat(f.scope().frontend()).isEqualTo("fe_web");
            assertThat(f.details()).containsEntry("key", "203.0.113.77").containsEntry("block", "203.0.113.77")
                    .containsEntry("slot_share", "93%").containsEntry("slots_held", "186")
                    .containsEntry("slot_holders", "203.0.113.77=93%,198.51.100.4=5%,192.0.2.9=2%");
            assertThat(f.summary()).startsWith("203.0.113.77 holds 93% of the connection slot time of HAProxy lb1 frontend fe_web"
                    + " (~186 of 200 slots)");
        });
    }
}
