package io.hcwatch.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.app.StreamApp;
import io.hcwatch.app.StreamAppConfig;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.input.CheckBatch;
import io.hcwatch.input.TargetSummary;
import io.hcwatch.topology.Envelope;
import io.hcwatch.topology.EnvelopeSerde;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The stream app on a real broker, restarted over what two other releases left: the previous
 * release's changelog records, pending store and repartition records (its golden file,
 * {@code golden/previous-release/internal-bytes.txt}, as main wrote them before this release's
 * versioned layouts), beside records a newer release wrote (this release's bytes with a layout or
 * schema version raised past what it knows). The previous release's are read: its pending
 * summaries are sent on to the monitors after the restart, nothing of it is dead-lettered. Each of
 * the newer release's is one dead letter with reason newer_version and its bytes, and a target
 * group's state of a newer layout refuses the record held for it (newer_version, held_in state)
 * while the other keys go on; no stream thread is ever replaced.
 */
class UpgradeRollbackIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String APP = "hcwatch-upgrade-it";
    private static final long T0 = Instant.parse("2026-03-03T14:30:00Z").toEpochMilli();
    private static final HexFormat HEX = HexFormat.of();

    private static Map<String, byte[]> golden(String file) throws Exception {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("src/test/resources/golden/" + file), StandardCharsets.UTF_8)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] parts = line.split(" ", 2);
                out.put(parts[0], HEX.parseHex(parts[1]));
            }
        }
        return out;
    }

    @Test
    void thePreviousReleasesStateIsReadAndANewerReleasesIsDeadLetteredRecordByRecord() throws Exception {
        Map<String, byte[]> previous = golden("previous-release/internal-bytes.txt");
        Map<String, byte[]> current = golden("internal-bytes.txt");
        try (LiveHarness h = new LiveHarness(1);
             LiveHarness.TopicReader<DeadLetter> dead = h.deadLetters();
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", h.kafka.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            // the previous release's clock waits for upstream alb-1, which one partition per input never
            // reports: let it go after 15 s, not the default 2 minutes of waiting for a crashed instance
            Map<String, String> cfg = Map.of("application.id", APP, "detect.window.silent-timeout", "15s");
            // a first run creates the internal topics as Kafka Streams wants them, then stops
            try (StreamApp first = new StreamApp(StreamAppConfig.load(h.appConfig("first", cfg)))) {
                first.start();
                Awaitility.await().atMost(WAIT).until(first::isReady);
            }

            // what the previous release left: its pending store, its monitor clock (header and a held
            // record), a target group's state, and its repartition records of the fleet monitor's kinds
            send(producer, APP + "-pending-health-changelog", "pending", previous.get("pending"));
            send(producer, APP + "-fleet-state-clock-changelog", "clock", previous.get("clock/header"));
            send(producer, APP + "-fleet-state-clock-changelog", "held/0000000000000000", previous.get("clock/held/0000000000000000"));
            send(producer, APP + "-fleet-state-changelog", "prod-web-tg", previous.get("state/fleet"));
            for (String kind : List.of("envelope/health_check", "envelope/lb_config_target_group", "envelope/health_checks",
                    "envelope/target_seen", "envelope/backend_event")) {
                send(producer, APP + "-fleet-repartition", "prod-web-tg", previous.get(kind));
            }
            // what a newer release left: a held record of a newer clock layout, a pending part and a
            // repartition record of a newer schema version
            byte[] newerHeld = current.get("clock/held/0000000000000000").clone();
            newerHeld[1]++;
            send(producer, APP + "-fleet-state-clock-changelog", "held/00000000000000ff", newerHeld);
            byte[] known = current.get("envelope/health_check");
            byte[] newerCheck = known.clone();
            newerCheck[2]++;
            send(producer, APP + "-pending-alb-changelog", "pending", ByteBuffer.allocate(1 + 4 + 4 + known.length + 4 + newerCheck.length)
                    .put((byte) 1).putInt(2).putInt(known.length).put(known).putInt(newerCheck.length).put(newerCheck).array());
            send(producer, APP + "-fleet-repartition", "prod-web-tg", newerCheck);
            // and a target group's state of a newer layout, with a record held for it: refused for that key alone
            send(producer, APP + "-fleet-state-changelog", "tg-newer",
                    "{\"v\":99,\"time\":{},\"state\":{},\"alerts\":{}}".getBytes(StandardCharsets.UTF_8));
            send(producer, APP + "-fleet-state-clock-changelog", "held/00000000000000fe", heldEntry("tg-newer", T0 + 5_000, 0xfe, known));
            producer.flush();

            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (StreamApp app = new StreamApp(StreamAppConfig.load(h.appConfig("second", cfg)), registry);
                 LiveHarness.TopicReader<Envelope> fleet = h.reader(APP + "-fleet-repartition", new EnvelopeSerde().deserializer())) {
                app.start();
                Awaitility.await().atMost(WAIT).until(app::isReady);
                Awaitility.await().atMost(WAIT).until(() -> dead.poll().stream()
                        .filter(d -> d.getReason().equals("newer_version")).count() >= 3);

                assertThat(dead.poll()).filteredOn(d -> !"tg-newer".equals(d.getKey()))
                        .extracting(d -> d.getReason() + " " + d.getStage() + " " + d.getKey())
                        .containsExactlyInAnyOrder("newer_version monitor-fleet prod-web-tg", "newer_version monitor-fleet null",
                                "newer_version ingest-alb pending");
                DeadLetter repartition = dead.poll().stream().filter(d -> d.getTopic() != null).findFirst().orElseThrow();
                assertThat(repartition.getTopic()).isEqualTo(APP + "-fleet-repartition");
                assertThat(repartition.getRaw().array()).isEqualTo(newerCheck);
                assertThat(dead.poll()).filteredOn(d -> d.getStage().equals("monitor-fleet") && d.getTopic() == null)
                        .singleElement().satisfies(d -> assertThat(d.getRaw().array()).isEqualTo(newerHeld));
                assertThat(dead.poll()).filteredOn(d -> d.getStage().equals("ingest-alb"))
                        .singleElement().satisfies(d -> assertThat(d.getRaw().array()).isEqualTo(newerCheck));

                // the previous release's pending store, restored by the health ingest and sent on to the fleet monitor
                Awaitility.await().atMost(WAIT).until(() -> fleet.poll().stream().anyMatch(e -> "health-0".equals(e.upstream())
                        && e.payload() instanceof TargetSummary t && t.traffic().getBucketStart() == T0));
                assertThat(fleet.poll()).anyMatch(e -> "health-0".equals(e.upstream()) && e.payload() instanceof CheckBatch b
                        && b.parts().size() == 2);
                // and the known part of the newer release's pending store, by the alb ingest
                assertThat(fleet.poll()).anyMatch(e -> "alb-0".equals(e.upstream()) && e.payload() instanceof CheckBatch);
                assertThat(registry.find(StreamApp.THREADS_REPLACED).counter().count()).isZero();
                // the record held for the target group whose state is a newer release's reaches it once time passes
                // it (a minute of another target group's checks): dead-lettered as that release's, with the record's
                // bytes, and the key's state left as stored; the evaluation steps of that minute go on
                h.produce(new IncidentFixture(1).healthy(T0 + 10_000, T0 + 70_000));
                Awaitility.await().atMost(WAIT).until(() -> dead.poll().stream().anyMatch(d -> "tg-newer".equals(d.getKey())));
                assertThat(dead.poll()).filteredOn(d -> "tg-newer".equals(d.getKey())).singleElement().satisfies(d -> {
                    assertThat(d.getReason()).isEqualTo("newer_version");
                    assertThat(d.getError()).startsWith("state: ").contains("layout 99");
                    assertThat(d.getRaw().array()).isEqualTo(known);
                });
                assertThat(registry.find("hcwatch.newer.version").counters()).extracting(c -> c.getId().getTag("held_in")
                        + " " + c.count()).contains("repartition 1.0", "clock 1.0", "pending 1.0", "state 1.0");
                // nothing of this release's own failed: the evaluation steps go on beside tg-newer's state
                assertThat(dead.poll()).noneMatch(d -> d.getReason().equals("processing_error"));
                assertThat(registry.find("hcwatch.processing.errors").counters()).allSatisfy(c -> assertThat(c.count()).isZero());
            }
        }
    }

    /** A held record as this release's clock writes it (SavedClock, layout 1). */
    private static byte[] heldEntry(String key, long time, long seq, byte[] envelope) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(0);
            out.writeByte(1);
            out.writeByte(2);
            out.writeUTF(key);
            out.writeLong(time);
            out.writeLong(seq);
            out.writeInt(envelope.length);
            out.write(envelope);
        }
        return bytes.toByteArray();
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(topic, 0, key.getBytes(StandardCharsets.UTF_8), value)).get();
    }
}
