package io.hcwatch.collect;

import org.apache.avro.specific.SpecificRecord;

/**
 * A record a poll wants published: to which of the collector's topics, under which key, and what
 * to forget when it is not delivered (so the next poll sends that state again).
 */
public record Outgoing(Topic topic, String key, SpecificRecord record, long timestampMs, Runnable onFailure) {

    /** The collector's topics; each collector maps them to configured names. */
    public enum Topic { CONFIG, HEALTH, STATS }
}
