package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.registry.SchemaRegistryServer;
import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.serde.RegistryWait;
import io.hcwatch.serde.SerdeConfig;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AvroOrJsonDecoderTest {

    private final String scope = "avro-or-json-" + System.nanoTime();
    private final Map<String, Object> serdeConfig = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, SerdeConfig.MOCK_SCHEME + scope);

    private AvroOrJsonDecoder<HealthCheckResult> decoder() {
        return new AvroOrJsonDecoder<>(HealthCheckResult.class, serdeConfig, raw -> {
            throw new AssertionError("a framed value must not reach the JSON parser");
        }, "health-check-results");
    }

    /** A 12-byte health check: ts, then a source claiming 200 MB. */
    @Test
    void aHealthCheckClaimingA200MbStringIsDeadLetteredAsBadAvroSayingWhatItClaimed() {
        int id = InMemorySchemaRegistry.scope(scope).register("health-check-results-value", HealthCheckResult.getClassSchema());
        byte[] bomb = ByteBuffer.allocate(12).put((byte) 0).putInt(id)
                .put((byte) 0x02) // ts = 1
                .put((byte) 0x02) // source: the string branch
                .put(new byte[] {(byte) 0x80, (byte) 0x88, (byte) 0xde, (byte) 0xbe, 0x01}) // 200,000,000
                .array();

        ParseResult<HealthCheckResult> result = decoder().decode(bomb);

        assertThat(result).isInstanceOfSatisfying(ParseResult.Rejected.class, rejected -> {
            assertThat(rejected.reason()).isEqualTo("bad_avro");
            assertThat(rejected.error()).contains("of 200000000 bytes claimed at byte 7");
        });
    }

    /**
     * The project's registry server stopped while a health check of a writer schema not fetched
     * before arrives: it was dead-lettered as bad_avro; now the decode waits, says so, and gives
     * the record once the registry listens again.
     */
    @Test
    void anAvroInputWaitsForAStoppedRegistryInsteadOfBeingDeadLettered() throws Exception {
        InMemorySchemaRegistry schemas = new InMemorySchemaRegistry();
        HealthCheckResult check = HealthCheckResult.newBuilder().setTs(Instant.parse("2026-03-03T14:32:45.120Z"))
                .setTargetGroup("prod-web-tg").setTarget("i-0abc0003").setOutcome(CheckOutcome.timeout).setLatencyMs(2_041)
                .build();
        byte[] value = new SpecificAvroSerializer<HealthCheckResult>(schemas).serialize("health-check-results", check);
        SchemaRegistryServer first = new SchemaRegistryServer(schemas).start();
        int port = URI.create(first.url()).getPort();
        first.stop();
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        RegistryOutage outage = new RegistryOutage(Clock.systemUTC(), metrics, "registry.unavailable", "inputs wait");
        RegistryWait wait = new RegistryWait(Duration.ofMillis(5), Duration.ofMillis(50), outage);
        AvroOrJsonDecoder<HealthCheckResult> decoder = new AvroOrJsonDecoder<>(HealthCheckResult.class,
                Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "http://127.0.0.1:" + port, SerdeConfig.MAX_ATTEMPTS, "1",
                        SerdeConfig.REGISTRY_WAIT, wait),
                raw -> {
                    throw new AssertionError("a framed value must not reach the JSON parser");
                }, "health-check-results");

        CompletableFuture<ParseResult<HealthCheckResult>> decoded = CompletableFuture.supplyAsync(() -> decoder.decode(value));
        try {
            await().atMost(Duration.ofSeconds(30)).until(outage::isOngoing);
            assertThat(decoded).as("still waiting, not dead-lettered").isNotDone();
            try (SchemaRegistryServer again = new SchemaRegistryServer(schemas, port).start()) {
                assertThat(decoded.get(30, TimeUnit.SECONDS)).isEqualTo(ParseResult.ok(check));
            }
        } finally {
            wait.stop();
        }
        assertThat(outage.isOngoing()).isFalse();
    }
}
