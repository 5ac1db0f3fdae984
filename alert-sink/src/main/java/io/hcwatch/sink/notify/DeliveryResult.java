package io.hcwatch.sink.notify;

/**
 * What one attempt to hand an alert to a receiver came to.
 *
 * <p>{@code reason} is a short category from a small fixed set (e.g. {@code pagerduty_503},
 * {@code pagerduty_network}) that may become a dead-letter reason; {@code statusClass} is coarser
 * still ({@code 4xx}, {@code 429}, {@code 5xx}, {@code network}, ...) and is what metrics are
 * tagged with, so their cardinality stays bounded.
 */
public sealed interface DeliveryResult {

    static DeliveryResult delivered() {
        return Delivered.INSTANCE;
    }

    static DeliveryResult retryable(String reason, String statusClass, String detail) {
        return new Retryable(reason, statusClass, detail);
    }

    static DeliveryResult permanent(String reason, String statusClass, String responseBody) {
        return new Permanent(reason, statusClass, responseBody);
    }

    /** The receiver has the alert. */
    enum Delivered implements DeliveryResult {
        INSTANCE
    }

    /** Not delivered, but the same request may succeed later (429, 5xx, network errors). */
    record Retryable(String reason, String statusClass, String detail) implements DeliveryResult {
    }

    /** Not delivered and sending it again will not help; {@code responseBody} says why, as the receiver put it. */
    record Permanent(String reason, String statusClass, String responseBody) implements DeliveryResult {
    }
}
