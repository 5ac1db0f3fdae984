package io.hcwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.AlertStatus;
import io.hcwatch.avro.v1.CheckConfig;
import io.hcwatch.avro.v1.CheckOutcome;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.Severity;
import io.hcwatch.avro.v1.TargetState;
import io.hcwatch.serde.SerdeConfig;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.serde.WireFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's registry and the project's serde against an independent client,
 * {@code @kafkajs/confluent-schema-registry} on Node.js: each side reads what the other wrote.
 * Skipped when node or the package is missing, unless HCWATCH_REQUIRE_INTEROP=1 (as in CI).
 */
class NodeClientInteropTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path NODE_DIR = Path.of("src/test/node");
    private static final Path PACKAGE = NODE_DIR.resolve("node_modules/@kafkajs/confluent-schema-registry/package.json");
    private static final Path ALERT_V1 = Path.of("src/test/resources/schema-history/Alert/v1.avsc");
    private static final String INSTALL = "npm ci --prefix schemas/src/test/node --ignore-scripts --no-audit --no-fund";
    private static final long NODE_TIMEOUT_SECONDS = 60;
    private static final Instant TS = Instant.parse("2026-03-03T14:32:45.120Z");

    /** Why the interop cannot run here ("" when it can), found once for all tests. */
    private static String missing;

    @TempDir
    Path tmp;
    private final SchemaRegistryServer server = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();

    @BeforeAll
    static void lookForNodeAndPackage() throws InterruptedException {
        missing = missingPrerequisite();
    }

    @BeforeEach
    void requireNodeAndPackage() {
        if (missing.isEmpty()) {
            return;
        }
        if ("1".equals(System.getenv("HCWATCH_REQUIRE_INTEROP"))) {
            fail(missing + "; HCWATCH_REQUIRE_INTEROP=1 makes this a failure");
        }
        Assumptions.abort("node interop skipped: " + missing);
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    @Test
    void theNodeClientDecodesWhatTheProjectSerialized() throws Exception {
        SpecificAvroSerializer<HealthCheckResult> serializer = new SpecificAvroSerializer<>();
        serializer.configure(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, server.url()), false);
        byte[] bytes = serializer.serialize("health-check-results", HealthCheckResult.newBuilder()
                .setTs(TS).setSource("alb").setTargetGroup("prod-web-tg").setTarget("i-0abc123").setPort(8080)
                .setAz("us-east-1a").setOutcome(CheckOutcome.timeout).setLatencyMs(2140)
                .setState(TargetState.unhealthy).setReason("Target.Timeout")
                .setCheck(CheckConfig.newBuilder().setPath("/health").setTimeoutMs(2000).build())
                .build());

        ObjectNode command = JSON.createObjectNode().put("command", "decode").put("url", server.url())
                .put("bytes", Base64.getEncoder().encodeToString(bytes));
        JsonNode decoded = runNode(command);

        assertThat(decoded.get("id").asInt()).isEqualTo(WireFormat.schemaId(bytes));
        JsonNode value = decoded.get("value");
        assertThat(value.get("ts").asLong()).isEqualTo(TS.toEpochMilli());
        assertThat(value.get("source").asText()).isEqualTo("alb");
        assertThat(value.get("target_group").asText()).isEqualTo("prod-web-tg");
        assertThat(value.get("target").asText()).isEqualTo("i-0abc123");
        assertThat(value.get("port").asInt()).isEqualTo(8080);
        assertThat(value.get("outcome").asText()).isEqualTo("timeout");
        assertThat(value.get("latency_ms").asInt()).isEqualTo(2140);
        assertThat(value.get("state").asText()).isEqualTo("unhealthy");
        assertThat(value.get("status_code").isNull()).isTrue();
        assertThat(value.get("check").get("path").asText()).isEqualTo("/health");
        assertThat(value.get("check").get("timeout_ms").asInt()).isEqualTo(2000);
        assertThat(value.get("check").get("interval_ms").isNull()).isTrue();
    }

    @Test
    void theProjectDecodesWhatTheNodeClientRegisteredAndEncoded() throws Exception {
        ObjectNode record = (ObjectNode) JSON.readTree("""
                {"alert_id":"a-1","dedup_key":"correlated_failure/prod-web-tg","type":"correlated_failure",
                 "severity":"critical","status":"firing","event_time":%d,"window_start":%d,"window_end":null,
                 "scope":{"lb":null,"target_group":"prod-web-tg","zone":null,"host":null,"frontend":null,"client":null},
                 "summary":"11/18 targets of prod-web-tg failed health checks within 40s across 3 zones",
                 "details":{"failing":"11","registered":"18"},"runbook_url":null}
                """.formatted(TS.toEpochMilli(), TS.toEpochMilli() - 40_000));
        ObjectNode command = JSON.createObjectNode().put("command", "encode").put("url", server.url())
                .put("subject", "alerts-value").put("schema", Files.readString(ALERT_V1));
        command.set("record", record);

        JsonNode encoded = runNode(command);

        int id = encoded.get("id").asInt();
        assertThat(server.registry().getLatest("alerts-value").id()).isEqualTo(id);
        assertThat(server.registry().subjectCompatibility("alerts-value"))
                .as("the node client sets the level of a subject it registers first")
                .contains(InMemorySchemaRegistry.Compatibility.BACKWARD);
        SpecificAvroDeserializer<Alert> deserializer = new SpecificAvroDeserializer<>(Alert.class);
        deserializer.configure(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, server.url()), false);
        Alert alert = deserializer.deserialize("alerts", Base64.getDecoder().decode(encoded.get("bytes").asText()));

        assertThat(alert.getDedupKey()).isEqualTo("correlated_failure/prod-web-tg");
        assertThat(alert.getSeverity()).isEqualTo(Severity.critical);
        assertThat(alert.getStatus()).isEqualTo(AlertStatus.firing);
        assertThat(alert.getEventTime()).isEqualTo(TS);
        assertThat(alert.getWindowStart()).isEqualTo(TS.minusSeconds(40));
        assertThat(alert.getWindowEnd()).isNull();
        assertThat(alert.getScope().getTargetGroup()).isEqualTo("prod-web-tg");
        assertThat(alert.getScope().getZone()).isNull();
        assertThat(alert.getDetails()).containsExactlyInAnyOrderEntriesOf(Map.of("failing", "11", "registered", "18"));
        assertThat(alert.getRunbookUrl()).isNull();
    }

    private JsonNode runNode(JsonNode command) throws IOException, InterruptedException {
        Path stdout = tmp.resolve("node.out");
        Path stderr = tmp.resolve("node.err");
        Process process = new ProcessBuilder("node", "interop.js").directory(NODE_DIR.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(JSON.writeValueAsBytes(command));
        }
        if (!process.waitFor(NODE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("node interop.js did not finish within " + NODE_TIMEOUT_SECONDS + " s; stderr: " + Files.readString(stderr));
        }
        if (process.exitValue() != 0) {
            fail("node interop.js exited " + process.exitValue() + ": " + Files.readString(stderr));
        }
        return JSON.readTree(Files.readString(stdout, StandardCharsets.UTF_8));
    }

    /** Why the interop cannot run here, or "" when it can. */
    private static String missingPrerequisite() throws InterruptedException {
        try {
            Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!node.waitFor(10, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                return "node --version did not answer within 10 s";
            }
            if (node.exitValue() != 0) {
                return "node --version exited " + node.exitValue();
            }
        } catch (IOException e) {
            return "node is not on the PATH (" + e.getMessage() + ")";
        }
        if (!Files.isRegularFile(PACKAGE)) {
            return "@kafkajs/confluent-schema-registry is not installed in " + NODE_DIR + "; run from the repository root: "
                    + INSTALL;
        }
        return "";
    }
}
