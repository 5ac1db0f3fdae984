package io.hcwatch.sink.notify.pagerduty;

import java.util.Objects;

/**
 * A PagerDuty integration key. It is a credential: anyone holding it can page the on-call, so it
 * never appears in {@link #toString()}, logs or exception messages; only the request body sees
 * {@link #reveal()}.
 */
public final class RoutingKey {

    private final String value;
    private final String origin;

    /** @param origin where the key came from, safe to print (e.g. the variable's name) */
    public RoutingKey(String value, String origin) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("routing key from " + origin + " is empty");
        }
        this.value = value;
        this.origin = origin;
    }

    String reveal() {
        return value;
    }

    /** {@code text} with every occurrence of the key replaced, for response bodies that may echo it. */
    String redact(String text) {
        return text == null ? null : text.replace(value, "[routing key from " + origin + "]");
    }

    public String origin() {
        return origin;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RoutingKey other && value.equals(other.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value);
    }

    @Override
    public String toString() {
        return "RoutingKey[from " + origin + "]";
    }
}
