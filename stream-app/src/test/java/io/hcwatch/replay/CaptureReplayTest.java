package io.hcwatch.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.config.Settings;
import io.hcwatch.topology.Source;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replay of what a real HAProxy logged (src/test/resources/captures, with how each was made): the
 * detectors must find in it what the people running it would have seen, with no configuration.
 */
class CaptureReplayTest {

    @Test
    void aTarpitFloodOfAFrontendWhoseMaxconnIsUnknownIsFoundAndItsClientNamed() throws Exception {
        Path capture = Path.of(getClass().getResource("/captures/haproxy-tarpit-flood/haproxy-tarpit-flood.log.gz").toURI());
        ReplayInputs inputs = new ReplayInputs().add(Source.HAPROXY, capture);
        ReplaySummary summary = new ReplaySummary();
        List<Alert> alerts = new ReplayRun(inputs, Settings.defaults(), Clock.fixed(Instant.parse("2026-12-02T12:00:00Z"),
                ZoneOffset.UTC)).run(d -> { }, summary);

        Alert slots = firing(alerts, "socket_slot_exhaustion");
        assertThat(slots.getScope().getFrontend()).isEqualTo("fe_web");
        assertThat(slots.getDetails()).containsEntry("maxconn", "200").containsEntry("maxconn_inferred", "true")
                .containsEntry("slot_holders", "127.0.0.1=100%");
        assertThat(slots.getSummary()).contains("slots held by 127.0.0.1");
        // the flood began with the first tarpitted request (10:12:01); its lines come when each tarpit ends
        assertThat(slots.getEventTime()).isBetween(Instant.parse("2026-12-02T10:12:01Z"), Instant.parse("2026-12-02T10:12:21Z"));

        Alert flood = firing(alerts, "client_flood");
        assertThat(flood.getScope().getClient()).isEqualTo("127.0.0.1");
        assertThat(flood.getDetails()).containsEntry("reason", "slots").containsEntry("block", "127.0.0.1");
        assertThat(alerts).filteredOn(a -> a.getType().equals("client_flood"))
                .allSatisfy(a -> assertThat(a.getScope().getClient()).as("only the flooding client").isEqualTo("127.0.0.1"));
    }

    @Test
    void aServerAnsweringErrorsWhileItsChecksPassIsGrayAndNamed() throws Exception {
        Path capture = Path.of(getClass().getResource("/captures/haproxy-gray-server/haproxy-gray-server.log.gz").toURI());
        ReplayInputs inputs = new ReplayInputs().add(Source.HAPROXY, capture);
        List<Alert> alerts = new ReplayRun(inputs, Settings.defaults(), Clock.fixed(Instant.parse("2026-12-02T13:00:00Z"),
                ZoneOffset.UTC)).run(d -> { }, new ReplaySummary());

        Alert gray = firing(alerts, "gray_failure");
        assertThat(gray.getScope().getTargetGroup()).isEqualTo("be_app");
        assertThat(gray.getScope().getTarget()).isEqualTo("app2");
        assertThat(gray.getDetails()).containsEntry("checks", "passing");
        assertThat(gray.getDetails().get("reason")).startsWith("errors");
        // app2 lost 282 of its 880 requests (32%); its first 50 answered requests were logged from 12:03:04
        double share = Double.parseDouble(gray.getDetails().get("5xx_share").replace("%", ""));
        assertThat(share).isBetween(20.0, 45.0);
        assertThat(gray.getEventTime()).isBetween(Instant.parse("2026-12-02T12:03:04Z"), Instant.parse("2026-12-02T12:04:05Z"));
        assertThat(alerts).filteredOn(a -> a.getType().equals("gray_failure"))
                .allSatisfy(a -> assertThat(a.getScope().getTarget()).as("only the gray server").isEqualTo("app2"));
        assertThat(alerts).extracting(Alert::getType).as("nothing else is wrong").containsOnly("gray_failure");
    }

    private static Alert firing(List<Alert> alerts, String type) {
        return alerts.stream().filter(a -> a.getType().equals(type) && a.getStatus() == AlertStatus.firing).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " among " + alerts.stream().map(Alert::getDedupKey).toList()));
    }
}
