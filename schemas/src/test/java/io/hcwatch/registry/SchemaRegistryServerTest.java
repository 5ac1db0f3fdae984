package io.hcwatch.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SchemaRegistryServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUBJECT = "health-check-results-value";
    private static final Schema V1 = SchemaBuilder.record("Check").namespace("io.hcwatch.test").fields()
            .requiredString("target").endRecord();
    private static final Schema V2_OPTIONAL_ZONE = SchemaBuilder.record("Check").namespace("io.hcwatch.test").fields()
            .requiredString("target").optionalString("zone").endRecord();
    private static final Schema V2_REQUIRED_ZONE = SchemaBuilder.record("Check").namespace("io.hcwatch.test").fields()
            .requiredString("target").requiredString("zone").endRecord();

    private final SchemaRegistryServer server = new SchemaRegistryServer(new InMemorySchemaRegistry()).start();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stopServer() {
        server.stop();
    }

    private RestSchemaRegistryClient client() {
        return new RestSchemaRegistryClient(RestClientSettings.of(URI.create(server.url()))
                .withRetries(1, Duration.ofMillis(1), Duration.ofMillis(1))
                .withLatestCacheTtl(Duration.ZERO));
    }

    @Test
    void theRestClientRegistersLooksUpAndFollowsTheLatestVersion() {
        RestSchemaRegistryClient client = client();

        int v1 = client.register(SUBJECT, V1);
        assertThat(client.lookup(SUBJECT, V1)).isEqualTo(new RegisteredSchema(SUBJECT, v1, 1, V1));
        assertThat(client.getLatest(SUBJECT).version()).isEqualTo(1);

        assertThat(client.testCompatibility(SUBJECT, V2_OPTIONAL_ZONE)).isTrue();
        int v2 = client.register(SUBJECT, V2_OPTIONAL_ZONE);

        assertThat(v2).isNotEqualTo(v1);
        assertThat(client.getLatest(SUBJECT)).isEqualTo(new RegisteredSchema(SUBJECT, v2, 2, V2_OPTIONAL_ZONE));
        assertThat(client().getById(v1)).isEqualTo(V1);
    }

    @Test
    void anIncompatibleChangeIsReportedByTheCheckAndRefusedWith409() {
        RestSchemaRegistryClient client = client();
        client.register(SUBJECT, V1);

        assertThat(client.testCompatibility(SUBJECT, V2_REQUIRED_ZONE)).isFalse();
        SchemaRegistryException refused = catchThrowableOfType(SchemaRegistryException.class, () -> client.register(SUBJECT, V2_REQUIRED_ZONE));

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo(SchemaRegistryException.INCOMPATIBLE_SCHEMA);
        assertThat(refused.getMessage()).contains("incompatible with an earlier schema for subject \"" + SUBJECT + "\"");
    }

    @Test
    void lookupsOfWhatIsNotThereAnswerConfluentErrorBodies() throws Exception {
        assertThat(call("GET", "/subjects/nope/versions", null))
                .isEqualTo(new Answer(404, "{\"error_code\":40401,\"message\":\"Subject 'nope' not found.\"}"));
        assertThat(call("GET", "/schemas/ids/99", null))
                .isEqualTo(new Answer(404, "{\"error_code\":40403,\"message\":\"Schema 99 not found\"}"));
        client().register(SUBJECT, V1);
        assertThat(call("POST", "/subjects/" + SUBJECT, schemaBody(V2_OPTIONAL_ZONE)))
                .isEqualTo(new Answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"));
        assertThat(call("GET", "/subjects/" + SUBJECT + "/versions/7", null))
                .isEqualTo(new Answer(404, "{\"error_code\":40402,\"message\":\"Version 7 not found.\"}"));
    }

    @Test
    void aSubjectHasNoLevelOfItsOwnUntilOneIsSetAndThenItOverridesTheGlobalOne() throws Exception {
        client().register(SUBJECT, V1);

        assertThat(call("GET", "/config", null)).isEqualTo(new Answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}"));
        assertThat(call("GET", "/config/" + SUBJECT, null)).isEqualTo(new Answer(404, "{\"error_code\":40408,"
                + "\"message\":\"Subject '" + SUBJECT + "' does not have subject-level compatibility configured\"}"));
        assertThat(call("GET", "/config/" + SUBJECT + "?defaultToGlobal=true", null))
                .isEqualTo(new Answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}"));

        assertThat(call("PUT", "/config/" + SUBJECT, "{\"compatibility\":\"NONE\"}"))
                .isEqualTo(new Answer(200, "{\"compatibility\":\"NONE\"}"));
        assertThat(call("GET", "/config/" + SUBJECT, null)).isEqualTo(new Answer(200, "{\"compatibilityLevel\":\"NONE\"}"));
        assertThat(client().register(SUBJECT, V2_REQUIRED_ZONE)).isPositive();

        assertThat(call("PUT", "/config", "{\"compatibility\":\"FULL\"}")).isEqualTo(new Answer(200, "{\"compatibility\":\"FULL\"}"));
        assertThat(server.registry().defaultCompatibility()).isEqualTo(InMemorySchemaRegistry.Compatibility.FULL);
    }

    @Test
    void subjectsAndVersionsAreListedAndASubjectCanBeDeletedWhileItsIdsStillResolve() throws Exception {
        RestSchemaRegistryClient client = client();
        int id = client.register("a-value", V1);
        client.register("a-value", V2_OPTIONAL_ZONE);
        client.register("b value/ü", V1);

        assertThat(json(call("GET", "/subjects", null))).isEqualTo(JSON.readTree("[\"a-value\",\"b value/ü\"]"));
        assertThat(json(call("GET", "/subjects/a-value/versions", null))).isEqualTo(JSON.readTree("[1,2]"));
        JsonNode first = json(call("GET", "/subjects/a-value/versions/1", null));
        assertThat(first.get("subject").asText()).isEqualTo("a-value");
        assertThat(first.get("version").asInt()).isEqualTo(1);
        assertThat(first.get("id").asInt()).isEqualTo(id);
        assertThat(new Schema.Parser().parse(first.get("schema").asText())).isEqualTo(V1);
        assertThat(new Schema.Parser().parse(call("GET", "/subjects/a-value/versions/latest/schema", null).body()))
                .isEqualTo(V2_OPTIONAL_ZONE);

        assertThat(json(call("DELETE", "/subjects/a-value", null))).isEqualTo(JSON.readTree("[1,2]"));
        assertThat(json(call("GET", "/subjects", null))).isEqualTo(JSON.readTree("[\"b value/ü\"]"));
        assertThat(client().getById(id)).isEqualTo(V1);
    }

    @Test
    void invalidSchemasVersionsAndLevelsAnswer422WithTheirErrorCodes() throws Exception {
        assertThat(json(call("POST", "/subjects/" + SUBJECT + "/versions", "{\"schema\":\"{not avro\"}")).get("error_code").asInt())
                .isEqualTo(SchemaRegistryException.INVALID_SCHEMA);
        assertThat(call("POST", "/subjects/" + SUBJECT + "/versions", "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax\"}").status())
                .isEqualTo(422);
        assertThat(json(call("GET", "/subjects/" + SUBJECT + "/versions/zero", null)).get("error_code").asInt())
                .isEqualTo(SchemaRegistryException.INVALID_VERSION);
        assertThat(json(call("PUT", "/config", "{\"compatibility\":\"SIDEWAYS\"}")).get("error_code").asInt())
                .isEqualTo(SchemaRegistryException.INVALID_COMPATIBILITY_LEVEL);
    }

    @Test
    void unknownPathsAnswer404AndWrongMethods405() throws Exception {
        assertThat(call("GET", "/mode", null).status()).isEqualTo(404);
        assertThat(call("PUT", "/subjects", "{}").status()).isEqualTo(405);
        assertThat(call("GET", "/", null)).isEqualTo(new Answer(200, "{}"));
    }

    @Test
    void aStoppedServerNoLongerAnswers() {
        String url = server.url();
        server.stop();

        assertThatThrownBy(server::url).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create(url + "/subjects"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    private record Answer(int status, String body) {
    }

    private Answer call(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path.replace(" ", "%20")))
                .timeout(Duration.ofSeconds(5))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/vnd.schemaregistry.v1+json");
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/vnd.schemaregistry.v1+json");
        return new Answer(response.statusCode(), response.body());
    }

    private static JsonNode json(Answer answer) throws IOException {
        return JSON.readTree(answer.body());
    }

    private static String schemaBody(Schema schema) throws IOException {
        return JSON.writeValueAsString(java.util.Map.of("schema", schema.toString()));
    }
}
