package io.hcwatch.topology;

import io.hcwatch.config.Settings;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * Everything the topology is built from.
 *
 * @param decoders    how each input's raw values become records
 * @param serdeConfig schema.registry.url and friends, for the Avro topics (alerts, dead letters)
 * @param liveClock   advance detectors on the wall clock when input stops (live); off for replay
 * @param inputLag    the consumer's lag per input partition, where known (live)
 * @param inputPartitions partitions of each input topic, where known (live): monitors wait for every
 *                    one of them from the start
 */
public record TopologyConfig(
        Topics topics,
        Settings settings,
        Map<Source, Decoder> decoders,
        Map<String, ?> serdeConfig,
        MeterRegistry meterRegistry,
        boolean liveClock,
        InputLag inputLag,
        Map<Source, Integer> inputPartitions) {

    public TopologyConfig(Topics topics, Settings settings, Map<Source, Decoder> decoders, Map<String, ?> serdeConfig,
                          MeterRegistry meterRegistry, boolean liveClock) {
        this(topics, settings, decoders, serdeConfig, meterRegistry, liveClock, InputLag.UNKNOWN, Map.of());
    }
}
