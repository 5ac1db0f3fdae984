package io.hcwatch.registry;

import static io.hcwatch.registry.CannedRegistryStub.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.hcwatch.testsupport.ReservedPort;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which failures of a schema fetch mean "ask again later" and which mean "this id does not exist",
 * from real HTTP answers (and a timeout, and a refused connection) to the REST client.
 */
class RegistryUnavailabilityTest {

    private final CannedRegistryStub stub = new CannedRegistryStub();

    @AfterEach
    void stopStub() {
        stub.close();
    }

    private SchemaRegistryException fetchFailure(URI url, Duration timeout) {
        RestClientSettings settings = RestClientSettings.of(url).withRetries(2, Duration.ofMillis(1), Duration.ofMillis(2))
                .withRequestTimeout(timeout);
        return catchThrowableOfType(SchemaRegistryException.class, () -> new RestSchemaRegistryClient(settings).getById(5));
    }

    @ParameterizedTest(name = "HTTP {0} {1} -> unavailable: {2}")
    @CsvSource(delimiter = '|', value = {
            "503 | {\"error_code\":50003,\"message\":\"Error while forwarding the request to the leader\"} | true",
            "500 | {\"error_code\":50001,\"message\":\"Error in the backend data store\"} | true",
            "502 | <html>Bad Gateway</html> | true",
            "429 | {\"error_code\":429,\"message\":\"Too Many Requests\"} | true",
            "401 | {\"error_code\":401,\"message\":\"Unauthorized\"} | true",
            "403 | {\"error_code\":40301,\"message\":\"User is denied operation Read on Subject\"} | true",
            "404 | <html>Not Found</html> | true",
            "404 | {\"error_code\":40403,\"message\":\"Schema 5 not found\"} | false",
    })
    void anAnswerIsUnavailabilityUnlessTheRegistrySaysTheSchemaDoesNotExist(int status, String body, boolean unavailable) {
        stub.on("GET /schemas/ids/5", json(status, body));

        assertThat(fetchFailure(stub.url(), Duration.ofSeconds(5)).isUnavailable()).isEqualTo(unavailable);
    }

    @Test
    void aRegistryThatDoesNotAnswerInTimeIsUnavailable() {
        stub.on("GET /schemas/ids/5", CannedRegistryStub.hang());

        assertThat(fetchFailure(stub.url(), Duration.ofMillis(200)).isUnavailable()).isTrue();
    }

    @Test
    void aRegistryNotListeningIsUnavailable() {
        // a loopback port held and not listened on: connecting to it is refused
        URI url = URI.create("http://127.0.0.1:" + ReservedPort.closed());

        assertThat(fetchFailure(url, Duration.ofSeconds(5)).isUnavailable()).isTrue();
    }

    @Test
    void aSchemaTheRegistryServesButAvroCannotParseIsNotUnavailability() {
        stub.on("GET /schemas/ids/5", json(200, "{\"schema\": \"{\\\"type\\\": \\\"record\\\"}\"}"));

        assertThat(fetchFailure(stub.url(), Duration.ofSeconds(5)).isUnavailable()).isFalse();
    }
}
