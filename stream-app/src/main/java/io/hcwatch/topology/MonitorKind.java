package io.hcwatch.topology;

import io.hcwatch.alert.KeyMonitor;
import io.hcwatch.alert.Monitored;
import io.hcwatch.input.Telemetry;
import java.util.function.BiConsumer;

/**
 * One kind of monitor as the topology runs it.
 *
 * @param name    fleet, host, flood or feed: for metrics and dead letters (monitor-&lt;name&gt;)
 * @param store   its keys' store ({@code <store>-clock} keeps its clock)
 * @param input   the records it takes in: what its repartition topic delivers is checked against it
 * @param keys    what it does per key
 * @param changed told of every key after it changed (gauges), with null when the key was deleted
 */
public record MonitorKind<S, I>(String name, String store, Class<I> input, KeyMonitor<S, I> keys,
                                BiConsumer<String, Monitored<S>> changed) {

    /**
     * {@code part} as a record this monitor takes. A repartition topic is bytes: whether what came
     * on it is a kind this monitor takes is checked here, once; what each kind does is the
     * detection's (its sealed family's Cases).
     */
    I taken(Telemetry part) {
        if (!input.isInstance(part)) {
            throw new IllegalArgumentException("the " + name + " monitor cannot take " + part.getClass().getSimpleName());
        }
        return input.cast(part);
    }
}
