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
 * @param deadLetterMaxBytes the largest record the dead-letter topic and its producer take (live: read
 *                    at start): every dead letter is cut to fit it
 */
public record TopologyConfig(
        Topics topics,
        Settings settings,
        Map<Source, Decoder> decoders,
        Map<String, ?> serdeConfig,
        MeterRegistry meterRegistry,
        boolean liveClock,
        InputLag inputLag,
        Map<Source, Integer> inputPartitions,
        int deadLetterMaxBytes) {

    /** Kafka's default {@code max.message.bytes} and {@code max.request.size}. */
    public static final int KAFKA_DEFAULT_MAX_RECORD_BYTES = 1024 * 1024;

    public TopologyConfig(Topics topics, Settings settings, Map<Source, Decoder> decoders, Map<String, ?> serdeConfig,
                          MeterRegistry meterRegistry, boolean liveClock) {
        this(topics, settings, decoders, serdeConfig, meterRegistry, liveClock, InputLag.UNKNOWN, Map.of());
    }

    public TopologyConfig(Topics topics, Settings settings, Map<Source, Decoder> decoders, Map<String, ?> serdeConfig,
                          MeterRegistry meterRegistry, boolean liveClock, InputLag inputLag, Map<Source, Integer> inputPartitions) {
        this(topics, settings, decoders, serdeConfig, meterRegistry, liveClock, inputLag, inputPartitions,
                KAFKA_DEFAULT_MAX_RECORD_BYTES);
    }
}
