package io.hcwatch.collect;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * A running collector as its command, {@code /ready} and the tests see it: ready, metrics and the
 * endpoints' port all come from its {@link CollectorServices}.
 */
public interface Collector extends AutoCloseable {

    CollectorServices services();

    /** Ready once any poll has succeeded; one source being down is a matter of its own metrics. */
    default boolean isReady() {
        return services().anyPollSucceeded("");
    }

    default PrometheusMeterRegistry registry() {
        return services().registry();
    }

    /** The endpoints' port (useful with metrics.port=0), or -1. */
    default int metricsPort() {
        return services().metricsPort();
    }
}
