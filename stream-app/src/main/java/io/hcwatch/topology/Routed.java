package io.hcwatch.topology;

import io.hcwatch.avro.v1.DeadLetter;

/** Where an ingested input goes next: to a monitor (with its envelope) or to the dead-letter topic. */
public record Routed(Destination destination, Envelope envelope, DeadLetter deadLetter) {

    /** The monitors, each keyed differently, and the dead-letter topic. */
    public enum Destination { FLEET, HOST, FLOOD, FEED, DEAD_LETTER }

    public static Routed to(Destination destination, Envelope envelope) {
        return new Routed(destination, envelope, null);
    }

    public static Routed dead(DeadLetter deadLetter) {
        return new Routed(Destination.DEAD_LETTER, null, deadLetter);
    }
}
