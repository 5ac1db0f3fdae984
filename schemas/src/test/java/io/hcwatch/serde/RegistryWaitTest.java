package io.hcwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Serdes given a {@link RegistryWait} against the project's registry server, stopped: they wait
 * instead of throwing, and say so, until it listens again on the same port.
 */
class RegistryWaitTest {

    private final InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    private final RegistryOutage outage = new RegistryOutage(Clock.systemUTC(), metrics, "registry.unavailable", "records wait");
    private final RegistryWait wait = new RegistryWait(Duration.ofMillis(1), Duration.ofMillis(5), outage);
    private final List<SchemaRegistryServer> servers = new ArrayList<>();
    private final int port = stoppedRegistryPort();

    @AfterEach
    void stopServers() {
        servers.forEach(SchemaRegistryServer::close);
    }

    private int stoppedRegistryPort() {
        SchemaRegistryServer first = new SchemaRegistryServer(schemas).start();
        int free = URI.create(first.url()).getPort();
        first.stop();
        return free;
    }

    private Map<String, Object> serde(boolean waiting) {
        Map<String, Object> config = new HashMap<>(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://127.0.0.1:" + port,
                SerdeConfig.MAX_ATTEMPTS, "1"));
        if (waiting) {
            config.put(SerdeConfig.REGISTRY_WAIT, wait);
        }
        return config;
    }

    private static DeadLetter letter() {
        return DeadLetter.newBuilder().setSource("alb").setReason("bad_avro").setError("e")
                .setDeadLetteredAt(Instant.parse("2026-03-03T14:32:45Z")).build();
    }

    /** The registry comes back on the third question: the serializer's own call waited for it. */
    @Test
    void theFirstRecordOfATopicWaitsForTheRegistryInsteadOfFailingToSerialise() {
        SpecificAvroSerializer<DeadLetter> plain = new SpecificAvroSerializer<>();
        plain.configure(serde(false), false);
        assertThatThrownBy(() -> plain.serialize("dlq", letter())).isInstanceOf(SchemaRegistryUnavailableException.class);

        SpecificAvroSerializer<DeadLetter> later = new SpecificAvroSerializer<>();
        later.configure(serde(false), false);
        int[] questions = {0};
        byte[] bytes = wait.call(() -> {
            if (++questions[0] == 3) {
                servers.add(new SchemaRegistryServer(schemas, port).start());
            } else {
                assertThat(questions[0] == 1 || outage.isOngoing()).isTrue();
            }
            return later.serialize("dlq", letter());
        });

        assertThat(questions[0]).isEqualTo(3);
        assertThat(WireFormat.schemaId(bytes)).isEqualTo(schemas.getLatest("dlq-value").id());
        assertThat(outage.isOngoing()).isFalse();
        assertThat(metrics.get("registry.unavailable").gauge().value()).isZero();
    }

    @Test
    void aDeserializerGivenAWaitWaitsWhileTheRegistryIsDownAndDecodesOnceItAnswers() throws Exception {
        byte[] bytes = new SpecificAvroSerializer<DeadLetter>(schemas).serialize("dlq", letter());
        SpecificAvroDeserializer<DeadLetter> deserializer = new SpecificAvroDeserializer<>(DeadLetter.class);
        deserializer.configure(serde(true), false);

        CompletableFuture<DeadLetter> decoded = CompletableFuture.supplyAsync(() -> deserializer.deserialize("dlq", bytes));
        await().atMost(Duration.ofSeconds(30)).until(outage::isOngoing);
        assertThat(metrics.get("registry.unavailable").gauge().value()).isOne();
        assertThat(outage.describe()).singleElement().asString().startsWith("schema registry unavailable since ")
                .contains("records wait");
        assertThat(decoded).isNotDone();
        servers.add(new SchemaRegistryServer(schemas, port).start());

        assertThat(decoded.get(30, TimeUnit.SECONDS)).isEqualTo(letter());
        assertThat(outage.isOngoing()).isFalse();
    }

    @Test
    void aStoppedWaitGivesUpAtOnceSoTheProcessCanClose() {
        SpecificAvroSerializer<DeadLetter> waiting = new SpecificAvroSerializer<>();
        waiting.configure(serde(true), false);
        wait.stop();

        assertThatThrownBy(() -> waiting.serialize("dlq", letter())).isInstanceOf(SchemaRegistryUnavailableException.class);
        assertThat(outage.isOngoing()).isTrue();
    }
}
