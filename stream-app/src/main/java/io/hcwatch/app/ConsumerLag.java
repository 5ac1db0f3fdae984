package io.hcwatch.app;

import io.hcwatch.topology.InputLag;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The input lag Kafka Streams' own consumers measure (their {@code records-lag} per partition,
 * updated with every fetch), read from the client's metrics on a short period and shared with
 * the ingest processors.
 */
final class ConsumerLag implements InputLag {

    private volatile Map<TopicPartition, Long> lags = Map.of();

    /** Reads the current figures; cheap enough to run a few times a second. */
    void refresh(KafkaStreams streams) {
        try {
            lags = read(streams);
        } catch (RuntimeException e) {
            // a client closing under us: nothing known until the next read (a thrown exception would end the schedule)
            lags = Map.of();
        }
    }

    private static Map<TopicPartition, Long> read(KafkaStreams streams) {
        Map<TopicPartition, Long> now = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : streams.metrics().entrySet()) {
            MetricName name = e.getKey();
            if (!name.name().equals("records-lag") || !name.group().equals("consumer-fetch-manager-metrics")) {
                continue;
            }
            String topic = name.tags().get("topic");
            String partition = name.tags().get("partition");
            if (topic != null && partition != null && e.getValue().metricValue() instanceof Double lag && !lag.isNaN()) {
                now.merge(new TopicPartition(topic, Integer.parseInt(partition)), lag.longValue(), Math::max);
            }
        }
        return now;
    }

    @Override
    public long lag(String topic, int partition) {
        Long lag = lags.get(new TopicPartition(topic, partition));
        return lag == null ? -1 : lag;
    }
}
