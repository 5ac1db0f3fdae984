package io.hcwatch.simulate;

import io.hcwatch.topology.Source;
import java.nio.charset.StandardCharsets;

/**
 * One simulated input record as a producer would send it: the source (which decides the topic),
 * the telemetry's own event time, the raw value (a log line or a JSON record, UTF-8) and the
 * record key docs/contract.md ("Topics") gives it (target id for health-check results, config id for LbConfig,
 * none for log lines).
 */
public record Telemetry(Source source, long eventTimeMillis, byte[] value, String key) {

    public Telemetry(Source source, long eventTimeMillis, byte[] value) {
        this(source, eventTimeMillis, value, null);
    }

    /** The value as text (every simulated value is UTF-8). */
    public String text() {
        return new String(value, StandardCharsets.UTF_8);
    }
}
