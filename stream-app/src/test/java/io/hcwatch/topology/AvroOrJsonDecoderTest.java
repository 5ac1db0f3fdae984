package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.registry.InMemorySchemaRegistry;
import io.hcwatch.serde.SerdeConfig;
import java.nio.ByteBuffer;
import java.util.Map;
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
}
