package io.hcwatch.registry;

import static io.hcwatch.registry.CannedRegistryStub.hang;
import static io.hcwatch.registry.CannedRegistryStub.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hcwatch.testsupport.ReservedPort;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The REST client against canned answers written from Confluent's API reference (bodies,
 * status codes and error codes as documented), not against this project's own server.
 */
class RestSchemaRegistryClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUBJECT = "health-check-results-value";
    private static final Schema SCHEMA = SchemaBuilder.record("test").fields()
            .requiredString("field1").requiredInt("field2").endRecord();
    private static final String SCHEMA_JSON = quote(SCHEMA.toString());
    private static final String USER = "svc-hcwatch";
    private static final String PASSWORD = "s3cr3t-p4ss";

    private final CannedRegistryStub stub = new CannedRegistryStub();

    @AfterEach
    void stopStub() {
        stub.close();
    }

    private RestClientSettings fastRetries(URI... urls) {
        return RestClientSettings.of(urls).withRetries(3, Duration.ofMillis(1), Duration.ofMillis(5))
                .withRequestTimeout(Duration.ofSeconds(5));
    }

    private RestSchemaRegistryClient client() {
        return new RestSchemaRegistryClient(fastRetries(stub.url()));
    }

    @Test
    void registeringPostsTheSchemaAsRegistryJsonAndReturnsTheGlobalId() throws IOException {
        stub.on("POST /subjects/" + SUBJECT + "/versions", json(200, "{\"id\":1}"));

        int id = client().register(SUBJECT, SCHEMA);

        assertThat(id).isEqualTo(1);
        CannedRegistryStub.Recorded request = stub.requests().get(0);
        assertThat(request.header("Content-Type")).isEqualTo("application/vnd.schemaregistry.v1+json");
        assertThat(request.header("Accept")).startsWith("application/vnd.schemaregistry.v1+json");
        JsonNode body = JSON.readTree(request.body());
        assertThat(body.get("schema").asText()).isEqualTo(SCHEMA.toString());
        assertThat(body.has("schemaType")).as("Avro is the default type and older registries reject the field").isFalse();
    }

    @Test
    void registeringTheSameSchemaAgainReusesTheIdWithoutAskingTheRegistry() {
        stub.on("POST /subjects/" + SUBJECT + "/versions", json(200, "{\"id\":7}"));
        RestSchemaRegistryClient client = client();

        client.register(SUBJECT, SCHEMA);
        int again = client.register(SUBJECT, SCHEMA);

        assertThat(again).isEqualTo(7);
        assertThat(stub.count("POST /subjects/" + SUBJECT + "/versions")).isEqualTo(1);
    }

    @Test
    void aSchemaFetchedByIdIsParsedAndNeverFetchedAgain() {
        stub.on("GET /schemas/ids/1", json(200, "{\"schema\": \"{\\\"type\\\": \\\"string\\\"}\"}"));
        RestSchemaRegistryClient client = client();

        Schema first = client.getById(1);
        Schema second = client.getById(1);

        assertThat(first.getType()).isEqualTo(Schema.Type.STRING);
        assertThat(second).isSameAs(first);
        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(1);
    }

    @Test
    void anUnknownSchemaIdFailsWithSchemaNotFoundAndIsNotRetried() {
        stub.on("GET /schemas/ids/42", json(404, "{\"error_code\":40403,\"message\":\"Schema 42 not found\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().getById(42));

        assertThat(error.status()).isEqualTo(404);
        assertThat(error.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
        assertThat(error.getMessage()).contains("Schema 42 not found", "GET " + stub.url() + "/schemas/ids/42");
        assertThat(stub.count("GET /schemas/ids/42")).isEqualTo(1);
    }

    @Test
    void lookingUpUnderAnUnknownSubjectFailsWithSubjectNotFound() {
        stub.on("POST /subjects/" + SUBJECT,
                json(404, "{\"error_code\":40401,\"message\":\"Subject '" + SUBJECT + "' not found.\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().lookup(SUBJECT, SCHEMA));

        assertThat(error.status()).isEqualTo(404);
        assertThat(error.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND);
        assertThat(error.getMessage()).contains("Subject '" + SUBJECT + "' not found.");
    }

    @Test
    void lookingUpARegisteredSchemaGivesItsIdAndVersionUnderTheSubject() {
        stub.on("POST /subjects/test", json(200,
                "{\"subject\":\"test\",\"id\":1,\"version\":3,\"schema\":" + SCHEMA_JSON + "}"));

        RegisteredSchema found = client().lookup("test", SCHEMA);

        assertThat(found).isEqualTo(new RegisteredSchema("test", 1, 3, SCHEMA));
    }

    @Test
    void aSchemaTheSubjectIsNotUnderFailsWithSchemaNotFound() {
        stub.on("POST /subjects/test", json(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"));

        assertThatThrownBy(() -> client().lookup("test", SCHEMA))
                .isInstanceOfSatisfying(SchemaRegistryException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND));
    }

    @Test
    void anIncompatibleSchemaFailsWith409AndTheRegistrysReasonWithoutRetrying() {
        String reason = "Schema being registered is incompatible with an earlier schema for subject \\\"" + SUBJECT
                + "\\\", details: [{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'zone' at path"
                + " '/fields/16' in the new schema has no default value and is missing in the old schema',"
                + " additionalInfo:'zone'}, {oldSchemaVersion: 1}, {compatibility: 'BACKWARD'}]";
        stub.on("POST /subjects/" + SUBJECT + "/versions", json(409, "{\"error_code\":409,\"message\":\"" + reason + "\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().register(SUBJECT, SCHEMA));

        assertThat(error.status()).isEqualTo(409);
        assertThat(error.errorCode()).isEqualTo(SchemaRegistryException.INCOMPATIBLE_SCHEMA);
        assertThat(error.getMessage()).contains("is incompatible with an earlier schema", "READER_FIELD_MISSING_DEFAULT_VALUE");
        assertThat(stub.count("POST /subjects/" + SUBJECT + "/versions")).isEqualTo(1);
    }

    @Test
    void anInvalidSchemaFailsWith42201() {
        stub.on("POST /subjects/" + SUBJECT + "/versions",
                json(422, "{\"error_code\":42201,\"message\":\"Either the input schema or one of its references is invalid\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().register(SUBJECT, SCHEMA));

        assertThat(error.status()).isEqualTo(422);
        assertThat(error.errorCode()).isEqualTo(SchemaRegistryException.INVALID_SCHEMA);
        assertThat(stub.count("POST /subjects/" + SUBJECT + "/versions")).isEqualTo(1);
    }

    @Test
    void aServerErrorFollowedBySuccessIsRetried() {
        stub.on("GET /schemas/ids/1",
                json(500, "{\"error_code\":50001,\"message\":\"Error in the backend datastore\"}"),
                json(200, "{\"schema\":\"\\\"string\\\"\"}"));

        Schema schema = client().getById(1);

        assertThat(schema.getType()).isEqualTo(Schema.Type.STRING);
        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(2);
    }

    @Test
    void aServerErrorEveryTimeGivesUpAfterTheConfiguredAttempts() {
        stub.on("GET /schemas/ids/1", json(500, "{\"error_code\":50001,\"message\":\"Error in the backend datastore\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().getById(1));

        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(3);
        assertThat(error.status()).isEqualTo(500);
        assertThat(error.errorCode()).isEqualTo(SchemaRegistryException.BACKEND_ERROR);
        assertThat(error.getMessage()).contains("gave up on GET /schemas/ids/1 after 3 attempts",
                "Error in the backend datastore");
    }

    @Test
    void aRateLimitAnswerIsRetried() {
        stub.on("GET /schemas/ids/1",
                json(429, "{\"error_code\":429,\"message\":\"Rate Limit Exceeded\"}"),
                json(200, "{\"schema\":\"\\\"string\\\"\"}"));

        assertThat(client().getById(1).getType()).isEqualTo(Schema.Type.STRING);
        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(2);
    }

    @Test
    void anUnauthorizedAnswerIsNotRetried() {
        stub.on("GET /schemas/ids/1", json(401, "{\"error_code\":401,\"message\":\"Unauthorized\"}"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().getById(1));

        assertThat(error.status()).isEqualTo(401);
        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(1);
    }

    @Test
    void anHtmlErrorPageFromAProxyIsReportedWithItsStatusAndText() {
        stub.on("GET /schemas/ids/1", json(502, "<html><body><h1>502 Bad Gateway</h1></body></html>"));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client().getById(1));

        assertThat(error.status()).isEqualTo(502);
        assertThat(error.errorCode()).isEqualTo(502);
        assertThat(error.getMessage()).contains("502 Bad Gateway");
        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(3);
    }

    @Test
    void anUnreachableRegistryGivesUpWithTheNetworkErrorAsCause() throws IOException {
        URI closed = closedPort();
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(fastRetries(closed));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));

        assertThat(error.status()).isEqualTo(-1);
        assertThat(error.getMessage()).contains("gave up on GET /schemas/ids/1 after 3 attempts against " + closed);
        assertThat(error.getCause()).isInstanceOf(IOException.class);
    }

    @Test
    void theNextBaseUrlIsTriedWhenOneIsDownAndStaysPreferred() throws IOException {
        stub.on("GET /schemas/ids/1", json(200, "{\"schema\":\"\\\"string\\\"\"}"))
                .on("GET /schemas/ids/2", json(200, "{\"schema\":\"\\\"int\\\"\"}"));
        RestClientSettings settings = RestClientSettings.of(closedPort(), stub.url())
                .withRetries(2, Duration.ofSeconds(30), Duration.ofSeconds(30));
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(settings);

        long started = System.nanoTime();
        client.getById(1);
        client.getById(2);

        assertThat(stub.count("GET /schemas/ids/1")).isEqualTo(1);
        assertThat(stub.count("GET /schemas/ids/2")).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("moving to another URL needs no backoff").isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aRegistryThatNeverAnswersTimesOutOnEveryAttempt() {
        stub.on("GET /schemas/ids/1", hang());
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(RestClientSettings.of(stub.url())
                .withRetries(2, Duration.ofMillis(1), Duration.ofMillis(1))
                .withRequestTimeout(Duration.ofMillis(300)));

        SchemaRegistryException error = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));

        assertThat(error.getMessage()).contains("after 2 attempts");
        assertThat(error.getCause()).isInstanceOf(java.net.http.HttpTimeoutException.class);
    }

    @Test
    void theLatestVersionIsReusedUntilItsTimeToLiveRunsOut() {
        stub.on("GET /subjects/test/versions/latest", json(200,
                "{\"subject\":\"test\",\"id\":4,\"version\":2,\"schema\":" + SCHEMA_JSON + "}"));
        MutableClock clock = new MutableClock(Instant.parse("2026-03-03T14:00:00Z"));
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(
                fastRetries(stub.url()).withLatestCacheTtl(Duration.ofSeconds(30)), clock);

        RegisteredSchema latest = client.getLatest("test");
        clock.advance(Duration.ofSeconds(29));
        client.getLatest("test");
        assertThat(stub.count("GET /subjects/test/versions/latest")).isEqualTo(1);

        clock.advance(Duration.ofSeconds(1));
        client.getLatest("test");
        assertThat(stub.count("GET /subjects/test/versions/latest")).isEqualTo(2);
        assertThat(latest).isEqualTo(new RegisteredSchema("test", 4, 2, SCHEMA));
    }

    @Test
    void compatibilityIsTheRegistrysVerdictOnTheLatestVersion() {
        stub.on("POST /compatibility/subjects/test/versions/latest", json(200, "{\"is_compatible\": true}"))
                .on("POST /compatibility/subjects/other/versions/latest", json(200, "{\"is_compatible\": false}"));

        assertThat(client().testCompatibility("test", SCHEMA)).isTrue();
        assertThat(client().testCompatibility("other", SCHEMA)).isFalse();
    }

    @Test
    void aSubjectWithNothingRegisteredIsCompatibleWithAnything() {
        stub.on("POST /compatibility/subjects/test/versions/latest",
                json(404, "{\"error_code\":40401,\"message\":\"Subject 'test' not found.\"}"));

        assertThat(client().testCompatibility("test", SCHEMA)).isTrue();
    }

    @Test
    void subjectsAreEncodedAsOnePathSegment() {
        stub.on("POST /subjects/hc%20value%2Fz%C3%BCrich%2B1/versions", json(200, "{\"id\":3}"));

        assertThat(client().register("hc value/zürich+1", SCHEMA)).isEqualTo(3);
    }

    @Test
    void aSchemaOfAnotherTypeIsRefusedWithAClearReason() {
        stub.on("GET /schemas/ids/5", json(200,
                "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\"; message M { string f = 1; }\"}"));

        assertThatThrownBy(() -> client().getById(5))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("schema 5 is a PROTOBUF schema; only Avro is supported");
    }

    @Test
    void basicAuthCredentialsAreSentWithEveryRequest() {
        stub.on("GET /schemas/ids/1", json(200, "{\"schema\":\"\\\"string\\\"\"}"));
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(
                fastRetries(stub.url()).withBasicAuth(BasicAuth.fromUserInfo(USER + ":" + PASSWORD)));

        client.getById(1);

        assertThat(stub.requests().get(0).header("Authorization"))
                .isEqualTo("Basic " + base64(USER + ":" + PASSWORD));
    }

    @Test
    void credentialsAppearInNoExceptionMessageEvenWhenTheServerEchoesThem() throws IOException {
        String echoed = "Authorization 'Basic " + base64(USER + ":" + PASSWORD) + "' for " + USER + ":" + PASSWORD
                + " rejected; password " + PASSWORD;
        stub.on("GET /schemas/ids/1", json(401, "{\"error_code\":401,\"message\":\"" + echoed + "\"}"))
                .on("GET /schemas/ids/2", json(503, "<html>" + echoed + "</html>"))
                .on("GET /schemas/ids/3", json(200, "not json " + echoed))
                .on("GET /schemas/ids/4", hang())
                .on("POST /subjects/" + SUBJECT + "/versions", json(409, "{\"error_code\":409,\"message\":\"" + echoed + "\"}"));
        BasicAuth auth = BasicAuth.fromUserInfo(USER + ":" + PASSWORD);
        RestClientSettings settings = fastRetries(stub.url()).withBasicAuth(auth).withRequestTimeout(Duration.ofMillis(300));
        RestSchemaRegistryClient client = new RestSchemaRegistryClient(settings);
        RestSchemaRegistryClient unreachable = new RestSchemaRegistryClient(
                fastRetries(closedPort()).withBasicAuth(auth));

        List<Throwable> errors = new ArrayList<>();
        for (int id = 1; id <= 4; id++) {
            int schemaId = id;
            errors.add(catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(schemaId)));
        }
        errors.add(catchThrowableOfType(SchemaRegistryException.class, () -> client.register(SUBJECT, SCHEMA)));
        errors.add(catchThrowableOfType(SchemaRegistryException.class, () -> unreachable.getById(1)));

        assertThat(errors).doesNotContainNull().hasSize(6);
        for (Throwable error : errors) {
            for (Throwable t = error; t != null; t = t.getCause()) {
                assertThat(t.toString()).doesNotContain(PASSWORD, base64(USER + ":" + PASSWORD));
            }
        }
        assertThat(errors.get(0).getMessage()).contains("[redacted]");
        assertThat(settings.toString()).doesNotContain(PASSWORD, base64(USER + ":" + PASSWORD));
    }

    private static URI closedPort() {
        return URI.create("http://127.0.0.1:" + ReservedPort.closed());
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
