package io.hcwatch.topology;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * The record's timestamp, or the partition's time when it has none. Never throws: a raw line
 * with a bad timestamp must reach its parser (and the dead-letter topic), not stop the task.
 * Event time proper comes from the parsed telemetry, not from here.
 */
public final class SafeTimestampExtractor implements TimestampExtractor {

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long ts = record.timestamp();
        return ts >= 0 ? ts : Math.max(0, partitionTime);
    }
}
