package io.hcwatch.sink.consume;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Whether alerts are waiting for the Schema Registry: from the first alert whose writer schema it
 * could not serve until one is decoded again. Shown on {@code /ready} (below the verdict: a restart
 * would not bring the registry back) and as a gauge, so an outage is seen rather than inferred from lag.
 */
public final class RegistryOutage {

    public static final String UNAVAILABLE = "hcwatch.sink.registry.unavailable";

    private final Clock clock;
    private volatile Instant since;
    private volatile String lastError;

    public RegistryOutage(Clock clock, MeterRegistry metrics) {
        this.clock = clock;
        Gauge.builder(UNAVAILABLE, this, o -> o.since == null ? 0 : 1)
                .description("1 while alerts wait for the Schema Registry to serve their writer schema, else 0")
                .register(metrics);
    }

    void failed(String error) {
        if (since == null) {
            since = clock.instant();
        }
        lastError = error;
    }

    void answered() {
        since = null;
    }

    /** One line while alerts wait for the registry, none otherwise. */
    public List<String> describe() {
        Instant start = since;
        return start == null ? List.of() : List.of("schema registry unavailable since " + start + "; alerts wait, "
                + "nothing is committed or dead-lettered: " + lastError);
    }
}
