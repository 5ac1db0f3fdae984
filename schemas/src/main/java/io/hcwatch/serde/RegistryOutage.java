package io.hcwatch.serde;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Whether records are waiting for the Schema Registry: from the first one whose schema it could not
 * serve until it answers again. A gauge and a line for {@code /ready}, so an outage is seen rather
 * than inferred from lag.
 */
public final class RegistryOutage {

    private final Clock clock;
    private final String waiting;
    private volatile Instant since;
    private volatile String lastError;

    /**
     * @param gauge   the gauge's name: 1 during an outage, else 0
     * @param waiting what waits meanwhile, for the {@code /ready} line (e.g. "alerts wait, nothing is committed")
     */
    public RegistryOutage(Clock clock, MeterRegistry metrics, String gauge, String waiting) {
        this.clock = clock;
        this.waiting = waiting;
        Gauge.builder(gauge, this, o -> o.since == null ? 0 : 1)
                .description("1 while records wait for the Schema Registry to serve their schema, else 0")
                .register(metrics);
    }

    public void failed(String error) {
        if (since == null) {
            since = clock.instant();
        }
        lastError = error;
    }

    public void answered() {
        since = null;
    }

    public boolean isOngoing() {
        return since != null;
    }

    /** One line during an outage, none otherwise. */
    public List<String> describe() {
        Instant start = since;
        return start == null ? List.of() : List.of("schema registry unavailable since " + start + "; " + waiting + ": "
                + lastError);
    }
}
