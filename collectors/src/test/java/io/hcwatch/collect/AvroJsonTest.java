package io.hcwatch.collect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.avro.v1.BackendStats;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.ConfigKind;
import io.hcwatch.avro.v1.FrontendStats;
import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.avro.v1.TargetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON the collector writes with format=json must be what the stream app's JSON readers take
 * (stream-app HealthCheckResultJson/LbConfigJson, which this module may not depend on): the expected
 * texts are those readers' own writers' output for the same records.
 */
class AvroJsonTest {

    private static final Instant TS = Instant.parse("2026-12-02T07:33:00.250Z");

    @Test
    void aHealthCheckResultIsWrittenAsTheStreamAppWritesIt() {
        HealthCheckResult r = new HealthCheckResult(TS, "haproxy", "lb1", "be_web", "s1", "127.0.0.1", 8080, null,
                CheckOutcome.connect_error, 0, null, TargetState.unhealthy, "Layer4 connection problem",
                new CheckConfig(null, null, null, 2, 3), null, 1);

        assertThat(AvroJson.write(r)).isEqualTo("{\"ts\":\"2026-12-02T07:33:00.250Z\",\"source\":\"haproxy\",\"lb\":\"lb1\","
                + "\"target_group\":\"be_web\",\"target\":\"s1\",\"target_ip\":\"127.0.0.1\",\"port\":8080,\"az\":null,"
                + "\"outcome\":\"connect_error\",\"latency_ms\":0,\"status_code\":null,\"state\":\"unhealthy\","
                + "\"reason\":\"Layer4 connection problem\",\"check\":{\"path\":null,\"interval_ms\":null,\"timeout_ms\":null,"
                + "\"healthy_threshold\":2,\"unhealthy_threshold\":3},\"registered_at\":null,\"active_servers_left\":1}");
    }

    @Test
    void anLbConfigIsWrittenAsTheStreamAppWritesIt() {
        LbConfig c = LbConfig.newBuilder().setKind(ConfigKind.haproxy_frontend).setId("lb1/fe_web").setTs(TS)
                .setHost("lb1").setFrontend("fe_web").setMaxconn(200).build();

        assertThat(AvroJson.write(c)).isEqualTo("{\"kind\":\"haproxy_frontend\",\"id\":\"lb1/fe_web\","
                + "\"ts\":\"2026-12-02T07:33:00.250Z\",\"lb\":null,\"cross_zone\":null,\"registered_targets\":null,"
                + "\"unhealthy_state_routing\":null,\"dns_failover\":null,\"health_check\":null,\"host\":\"lb1\","
                + "\"frontend\":\"fe_web\",\"maxconn\":200,\"target_zones\":null,\"zone_cidrs\":null,\"log_format\":null}");
    }

    @Test
    void aDeadLettersRawBytesAreWrittenAsBase64() {
        io.hcwatch.avro.v1.DeadLetter d = io.hcwatch.avro.v1.DeadLetter.newBuilder().setSource("alb").setReason("bad_gzip")
                .setError("s3://b/k: not gzip").setRaw(java.nio.ByteBuffer.wrap(new byte[] {0x1f, (byte) 0x8b, 'x'}))
                .setDeadLetteredAt(TS).build();

        assertThat(AvroJson.write(d)).contains("\"raw\":\"H4t4\"", "\"dead_lettered_at\":\"2026-12-02T07:33:00.250Z\"");
    }

    @Test
    void zoneMapsAreWrittenAsObjectsAsTheStreamAppWritesThem() {
        LbConfig c = LbConfig.newBuilder().setKind(ConfigKind.target_group).setId("web").setTs(TS)
                .setTargetZones(new java.util.LinkedHashMap<>(java.util.Map.of("10.0.1.5", "us-east-1a")))
                .setZoneCidrs(java.util.Map.of("us-east-1a", List.of("10.0.1.0/24", "10.0.3.0/24"))).build();

        assertThat(AvroJson.write(c)).endsWith("\"maxconn\":null,\"target_zones\":{\"10.0.1.5\":\"us-east-1a\"},"
                + "\"zone_cidrs\":{\"us-east-1a\":[\"10.0.1.0/24\",\"10.0.3.0/24\"]},\"log_format\":null}");
    }

    @Test
    void haproxyStatsNestFrontendsAndBackendsAsArraysOfObjects() throws Exception {
        HaproxyStats s = new HaproxyStats(TS, "lb1", 4242, 3600L, false, 1000L, 12, 1000, 5, 5, 0, 99,
                List.of(new FrontendStats("fe_web", "OPEN", 10, 200, 50, null, 5, 5, 5, 5L, 0L, 1L, null, null, null)),
                List.of(new BackendStats("be_web", "UP", 10, 0, 2, 0, 5L, 0L, 0L)));

        JsonNode json = new ObjectMapper().readTree(AvroJson.write(s));

        assertThat(json.get("ts").asText()).isEqualTo("2026-12-02T07:33:00.250Z");
        assertThat(json.get("interval_ms").asLong()).isEqualTo(1000);
        assertThat(json.get("frontends").get(0).get("slim").asInt()).isEqualTo(200);
        assertThat(json.get("frontends").get(0).get("dcon_delta").isNull()).isTrue();
        assertThat(json.get("backends").get(0).get("active_servers").asInt()).isEqualTo(2);
    }
}
