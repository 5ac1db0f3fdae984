package io.hcwatch.topology.state;

import com.fasterxml.jackson.core.JsonGenerator;
import io.hcwatch.alert.Monitored;
import io.hcwatch.detect.fleet.FleetState;
import io.hcwatch.detect.fleet.Latencies;
import io.hcwatch.detect.fleet.Registry;
import io.hcwatch.detect.fleet.SlidingHistogram;
import io.hcwatch.detect.fleet.StepHistory;
import java.io.IOException;

/**
 * A target group's head ({@code m}) written from the live state: the value's JSON without what
 * the other parts hold, and with what {@link FleetParts} leaves in their place (each latency
 * window's slot count, the history's arrays' names), the bytes the tree left after the cut gave.
 */
final class FleetHead {

    private static final BeanJson HISTOGRAM = BeanJson.of(SlidingHistogram.class).without("slotStart", "slots")
            .then((h, g, p) -> g.writeNumberField("ring", ArrayCells.length(((SlidingHistogram) h).slotStart)));
    private static final BeanJson LATENCIES = BeanJson.of(Latencies.class)
            .instead("all", HISTOGRAM::writeObject)
            .instead("failing", HISTOGRAM::writeObject)
            .instead("passing", HISTOGRAM::writeObject);
    private static final BeanJson HISTORY = BeanJson.of(StepHistory.class).without(ClockParts.HISTORY).without("next", "size")
            .then((h, g, p) -> arrays((StepHistory) h, g));
    private static final BeanJson REGISTRY = BeanJson.of(Registry.class).without("targets", "departed");
    private static final BeanJson STATE = BeanJson.of(FleetState.class)
            .without("traffic", "served")
            .instead("registry", REGISTRY::writeObject)
            .instead("latency", LATENCIES::writeObject)
            .instead("history", HISTORY::writeObject);
    /** The clock is part {@code c}. */
    private static final BeanJson MONITORED = HeadJson.of(STATE).without("time");

    private FleetHead() {
    }

    static byte[] write(Monitored<FleetState> value) {
        return HeadJson.write(MONITORED, value);
    }

    /** The names of the history's arrays that it holds, in the order of its chunks' columns. */
    private static void arrays(StepHistory h, JsonGenerator g) throws IOException {
        if (ClockRows.hasArrays(h)) {
            g.writeArrayFieldStart("arrays");
            writeNameIfHeld(g, "at", h.at);
            writeNameIfHeld(g, "p50", h.p50);
            writeNameIfHeld(g, "p99", h.p99);
            writeNameIfHeld(g, "healthy", h.healthy);
            writeNameIfHeld(g, "requestRate", h.requestRate);
            writeNameIfHeld(g, "known", h.known);
            g.writeEndArray();
        }
    }

    private static void writeNameIfHeld(JsonGenerator g, String name, Object array) throws IOException {
        if (array != null) {
            g.writeString(name);
        }
    }
}
