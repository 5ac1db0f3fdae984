package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.config.Settings;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SpecificAvroSerde;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * haproxy-stats through the whole topology, beside the log lines of a real tarpit flood
 * (captures/haproxy-tarpit-flood: HAProxy 2.6, fe_web maxconn 200 filled from 10:12:01.6 by
 * 127.0.0.1, lines without a host name). The collector's polls, as it would have read them then,
 * say the frontend is full at once; the first tarpitted request is logged ten seconds later.
 */
class HaproxyStatsIngestTest {

    private static final String SCOPE = "haproxy-stats-ingest-test";
    private static final Instant FILLED = Instant.parse("2026-12-02T10:12:01.564Z");
    private final Map<String, Object> serdeConfig = Map.of("schema.registry.url", "mock://" + SCOPE);
    private final Topics topics = Topics.defaults();
    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> logs;
    private TestInputTopic<byte[], byte[]> stats;
    private TestOutputTopic<String, Alert> alerts;
    private TestOutputTopic<String, DeadLetter> deadLetters;

    @BeforeEach
    void start() {
        Clock clock = Clock.fixed(FILLED, ZoneOffset.UTC);
        TopologyConfig config = new TopologyConfig(topics, Settings.defaults(), Decoders.standard(topics, serdeConfig, clock),
                serdeConfig, new SimpleMeterRegistry(), false);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hcwatch-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(TopologyFactory.build(config), props);
        logs = driver.createInputTopic(topics.input(Source.HAPROXY), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        stats = driver.createInputTopic(topics.input(Source.HAPROXY_STATS), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
        alerts = driver.createOutputTopic(topics.alerts(), Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(Alert.class, serdeConfig).deserializer());
        deadLetters = driver.createOutputTopic(topics.deadLetters(), Serdes.String().deserializer(),
                SpecificAvroSerde.forValues(DeadLetter.class, serdeConfig).deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
        InMemorySchemaRegistry.dropScope(SCOPE);
    }

    /** The capture's lines by their syslog second (when HAProxy sent them), up to {@code until}. */
    private static TreeMap<Instant, List<String>> capture(Instant until) throws IOException {
        TreeMap<Instant, List<String>> bySecond = new TreeMap<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                HaproxyStatsIngestTest.class.getResourceAsStream("/captures/haproxy-tarpit-flood/haproxy-tarpit-flood.log.gz")),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                // "<134>Dec  2 10:12:11 haproxy[...]": the capture is from one day
                Instant sent = Instant.parse("2026-12-02T" + line.substring(line.indexOf('>') + 8, line.indexOf('>') + 16) + "Z");
                if (!sent.isAfter(until)) {
                    bySecond.computeIfAbsent(sent, k -> new ArrayList<>()).add(line);
                }
            }
        }
        return bySecond;
    }

    /** fe_web as `show stat` read it 300 ms into each second: a few users, then full from the flood on. */
    private static String poll(Instant second) {
        Instant at = second.plusMillis(300);
        int scur = at.isAfter(FILLED) ? 200 : 4;
        return "{\"ts\":\"" + at + "\",\"host\":\"web1\",\"curr_conns\":" + (scur + 1) + ",\"maxconn\":1000,"
                + "\"frontends\":[{\"name\":\"fe_web\",\"status\":\"" + (scur == 200 ? "FULL" : "OPEN") + "\",\"scur\":" + scur
                + ",\"slim\":200,\"smax\":200,\"rate\":3}]}";
    }

    @Test
    void pollsShowAFullFrontendBeforeItsFirstRequestIsLoggedAndTheLogsNameWhoHoldsIt() throws IOException {
        Instant end = Instant.parse("2026-12-02T10:12:32Z");
        TreeMap<Instant, List<String>> lines = capture(end);
        // the collector polls every second; HAProxy sends lines only in the seconds requests end
        for (Instant second = lines.firstKey(); !second.isAfter(end); second = second.plusSeconds(1)) {
            stats.pipeInput(null, poll(second).getBytes(StandardCharsets.UTF_8), second.plusMillis(300));
            for (String line : lines.getOrDefault(second, List.of())) {
                logs.pipeInput(null, line.getBytes(StandardCharsets.UTF_8), second);
            }
        }
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));

        List<Alert> fired = alerts.readValuesToList();
        assertThat(fired).extracting(Alert::getDedupKey).doesNotContain("socket_slot_exhaustion/unknown/fe_web")
                .contains("socket_slot_exhaustion/web1/fe_web");
        Alert slots = fired.stream().filter(a -> a.getDedupKey().equals("socket_slot_exhaustion/web1/fe_web")).findFirst().orElseThrow();
        assertThat(slots.getStatus()).isEqualTo(AlertStatus.firing);
        // polled full from 10:12:02.3 on: the first poll 10 s (slots.sustain) later fires it, 10.7 s after the
        // frontend filled; from the logs alone the limit is inferred only once they have been flat for 10 s
        assertThat(slots.getEventTime()).isEqualTo(Instant.parse("2026-12-02T10:12:12.300Z"));
        assertThat(slots.getDetails()).containsEntry("sessions_from", "haproxy-stats").containsEntry("maxconn", "200")
                .containsEntry("maxconn_inferred", "false");
        assertThat(slots.getDetails().get("slot_holders")).startsWith("127.0.0.1=");
        assertThat(deadLetters.readValuesToList()).isEmpty();
    }

    @Test
    void pollsInTheWireFormatAreReadAndBadOnesAreDeadLetteredWithTheirReason() {
        SpecificAvroSerde<HaproxyStats> serde = SpecificAvroSerde.forValues(HaproxyStats.class, serdeConfig);
        Instant t = FILLED;
        for (int s = 0; s < 25; s++) {
            Instant at = t.plusSeconds(s);
            HaproxyStats poll = HaproxyStats.newBuilder().setTs(at).setHost("web1").setFrontends(new ArrayList<>(List.of(
                    FrontendStats.newBuilder().setName("fe_web").setScur(200).setSlim(200).setSmax(200).setRate(0).build())))
                    .setBackends(new ArrayList<>()).build();
            stats.pipeInput(null, serde.serializer().serialize(topics.input(Source.HAPROXY_STATS), poll), at);
        }
        stats.pipeInput(null, "{\"ts\":\"2026-12-02T10:12:30Z\",\"host\":\"web1\",\"frontends\":[{\"name\":\"fe_web\",\"scur\":-5}]}"
                .getBytes(StandardCharsets.UTF_8), t);
        stats.pipeInput(null, new byte[] {0, 0, 0, 0, 42, 9}, t);
        driver.advanceWallClockTime(Settings.defaults().duration("combine.flush-interval"));

        assertThat(alerts.readValuesToList()).extracting(Alert::getDedupKey).contains("socket_slot_exhaustion/web1/fe_web");
        List<DeadLetter> dead = deadLetters.readValuesToList();
        assertThat(dead).extracting(DeadLetter::getSource).containsOnly("haproxy-stats");
        assertThat(dead).extracting(DeadLetter::getReason).containsExactly("bad_number", "bad_avro");
        assertThat(dead).extracting(DeadLetter::getTopic).containsOnly("haproxy-stats");
    }
}
