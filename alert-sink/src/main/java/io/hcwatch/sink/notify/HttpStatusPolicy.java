package io.hcwatch.sink.notify;

/**
 * The status table every HTTP receiver shares (alertmanager's notify package, PagerDuty's
 * "Response Codes &amp; Retry Logic"): 2xx delivered; 429 and 5xx retry; anything else is a
 * request the receiver will never accept, so retrying would only delay the dead letter.
 */
public final class HttpStatusPolicy {

    private HttpStatusPolicy() {
    }

    public static DeliveryResult classify(String receiver, int status, String responseBody) {
        if (status >= 200 && status < 300) {
            return DeliveryResult.delivered();
        }
        String detail = "HTTP " + status + (responseBody == null || responseBody.isEmpty() ? "" : ": " + responseBody);
        if (status == 429) {
            return DeliveryResult.retryable(receiver + "_429", "429", detail);
        }
        if (status >= 500 && status < 600) {
            return DeliveryResult.retryable(receiver + "_" + status, "5xx", detail);
        }
        String statusClass = status >= 400 && status < 500 ? "4xx" : (status / 100) + "xx";
        return DeliveryResult.permanent(receiver + "_" + status, statusClass, detail);
    }

    /** A request that never got a status: connection refused or reset, timeout, TLS failure. */
    public static DeliveryResult networkError(String receiver, String errorType, String message) {
        return DeliveryResult.retryable(receiver + "_network", "network",
                errorType + (message == null ? "" : ": " + message));
    }
}
