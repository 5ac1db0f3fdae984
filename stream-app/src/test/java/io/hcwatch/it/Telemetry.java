package io.hcwatch.it;

import io.hcwatch.topology.Source;

/** One input value for a topic, with the event time it carries and its record key (null: none). */
record Telemetry(Source source, long eventTime, byte[] value, String key) {

    Telemetry(Source source, long eventTime, byte[] value) {
        this(source, eventTime, value, null);
    }
}
