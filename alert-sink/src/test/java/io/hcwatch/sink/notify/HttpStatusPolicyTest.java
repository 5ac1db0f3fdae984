package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpStatusPolicyTest {

    @ParameterizedTest(name = "HTTP {0} -> {1} ({2}, {3})")
    @CsvSource({
            "200, delivered,    ,              ",
            "202, delivered,    ,              ",
            "204, delivered,    ,              ",
            "429, retry,        pagerduty_429, 429",
            "500, retry,        pagerduty_500, 5xx",
            "502, retry,        pagerduty_502, 5xx",
            "503, retry,        pagerduty_503, 5xx",
            "504, retry,        pagerduty_504, 5xx",
            "400, dead_letter,  pagerduty_400, 4xx",
            "401, dead_letter,  pagerduty_401, 4xx",
            "403, dead_letter,  pagerduty_403, 4xx",
            "404, dead_letter,  pagerduty_404, 4xx",
            "413, dead_letter,  pagerduty_413, 4xx",
            "422, dead_letter,  pagerduty_422, 4xx",
            "301, dead_letter,  pagerduty_301, 3xx",
    })
    void classifiesEachStatusAsTheTableSays(int status, String expected, String reason, String statusClass) {
        DeliveryResult result = HttpStatusPolicy.classify("pagerduty", status, "{\"status\":\"x\"}");

        switch (expected) {
            case "delivered" -> assertThat(result).isEqualTo(DeliveryResult.delivered());
            case "retry" -> assertThat(result).isEqualTo(
                    DeliveryResult.retryable(reason, statusClass, "HTTP " + status + ": {\"status\":\"x\"}"));
            case "dead_letter" -> assertThat(result).isEqualTo(
                    DeliveryResult.permanent(reason, statusClass, "HTTP " + status + ": {\"status\":\"x\"}"));
            default -> throw new IllegalArgumentException(expected);
        }
    }

    @ParameterizedTest
    @CsvSource({"ConnectException, Connection refused", "HttpTimeoutException, request timed out"})
    void networkErrorsAreRetried(String type, String message) {
        assertThat(HttpStatusPolicy.networkError("pagerduty", type, message))
                .isEqualTo(DeliveryResult.retryable("pagerduty_network", "network", type + ": " + message));
    }
}
