package io.hcwatch.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hcwatch.kafka.EmbeddedKafkaBroker;
import io.hcwatch.parse.DeclaredLogFormats;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.topology.Decoder;
import io.hcwatch.topology.Decoders;
import io.hcwatch.topology.Source;
import io.hcwatch.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A restarted stream app knows the log formats the collector published before it started (the
 * lb-config topic is read from its start before the topology runs, though the topology's own
 * consumer resumes after what it committed), and those published while it runs, whichever
 * instance reads the topic's partitions.
 */
class LbConfigFollowerIT {

    private static final String LINE = "<134>Dec  6 02:09:42 haproxy[31838]: {\"ts\":\"06/Dec/2026:02:09:42.211\","
            + "\"client\":\"127.0.0.1:45732\",\"fe\":\"fe_json\",\"status\":403}";

    @Test
    void formatsPublishedBeforeTheStartReadTheFirstLineAndLaterOnesAreFollowed() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            broker.createTopics(2, List.of("lb-config"), Map.of("cleanup.policy", "compact"));
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                    new StringSerializer(), new StringSerializer())) {
                p.send(new ProducerRecord<>("lb-config", "web1/fe_json", "{\"kind\":\"haproxy_frontend\",\"id\":\"web1/fe_json\","
                        + "\"ts\":\"2026-12-06T02:00:00Z\",\"host\":\"web1\",\"frontend\":\"fe_json\",\"log_format\":"
                        + "\"{\\\"ts\\\":\\\"%t\\\",\\\"client\\\":\\\"%ci:%cp\\\",\\\"fe\\\":\\\"%ft\\\",\\\"status\\\":%ST}\"}"));
                p.send(new ProducerRecord<>("lb-config", "web1", "{\"kind\":\"haproxy_process\",\"id\":\"web1\","
                        + "\"ts\":\"2026-12-06T02:00:00Z\",\"host\":\"web1\",\"maxconn\":4000}"));
                p.send(new ProducerRecord<>("lb-config", "gone", null));
                p.flush();
            }
            Map<Source, Decoder> decoders = Decoders.standard(Topics.defaults(), Map.of("schema.registry.url", "mock://history-it"),
                    LogDates.live(Clock.fixed(Instant.parse("2026-12-06T03:00:00Z"), ZoneOffset.UTC)), DeclaredLogFormats.of(Map.of()));
            byte[] line = LINE.getBytes(StandardCharsets.UTF_8);
            assertThat(decoders.get(Source.HAPROXY).decode(line)).isInstanceOf(ParseResult.Rejected.class);

            try (LbConfigFollower follower = LbConfigFollower.start(Map.of("bootstrap.servers", broker.bootstrapServers(),
                    "group.id", "unused"), "lb-config", decoders.get(Source.CONFIG), Duration.ofSeconds(20))) {
                assertThat(follower.read()).as("read up to the end before start returns").isEqualTo(2);
                assertThat(decoders.get(Source.HAPROXY).decode(line)).isInstanceOf(ParseResult.Ok.class);

                // a reload gives fe_json another format: followed while the app runs
                try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                        new StringSerializer(), new StringSerializer())) {
                    p.send(new ProducerRecord<>("lb-config", "web1/fe_json", "{\"kind\":\"haproxy_frontend\",\"id\":\"web1/fe_json\","
                            + "\"ts\":\"2026-12-06T02:30:00Z\",\"host\":\"web1\",\"frontend\":\"fe_json\",\"log_format\":"
                            + "\"%ci:%cp [%tr] %ft %b/%s %ST %{+Q}r\"}"));
                }
                await("the new format").atMost(Duration.ofSeconds(30))
                        .until(() -> decoders.get(Source.HAPROXY).decode(line) instanceof ParseResult.Rejected);
                byte[] text = ("<134>Dec  6 02:31:00 haproxy[31838]: 127.0.0.1:45732 [06/Dec/2026:02:31:00.101] fe_json app/web1 403 "
                        + "\"GET / HTTP/1.1\"").getBytes(StandardCharsets.UTF_8);
                assertThat(decoders.get(Source.HAPROXY).decode(text)).isInstanceOf(ParseResult.Ok.class);
            }
            assertThat(LbConfigFollower.start(Map.of("bootstrap.servers", broker.bootstrapServers()), "no-such-topic",
                    decoders.get(Source.CONFIG), Duration.ofSeconds(5))).isNull();
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).as("reading created no topic")
                        .doesNotContain("no-such-topic");
            }
        }
    }
}
