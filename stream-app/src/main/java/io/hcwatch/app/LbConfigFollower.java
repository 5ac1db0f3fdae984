package io.hcwatch.app;

import io.hcwatch.retry.Sleeper;
import io.hcwatch.topology.Decoder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every partition of the lb-config topic, read from its start through the config decoder: first up
 * to its end before the topology starts, then as records come, until closed. What the decoder keeps
 * of them (the log formats the collector publishes) is then known to this instance from its first
 * line on and whichever instance reads the partition in the topology. Without it a restarted stream
 * app would dead-letter every custom-format line until the next reload (the topology's consumer
 * resumes after its committed offsets, and the collector publishes a format only at its start and on
 * change), and with several instances only one would learn a new format. The topic is compacted and
 * small (a record per target group, HAProxy frontend and process).
 */
final class LbConfigFollower implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LbConfigFollower.class);
    /** After a failed poll: a broker or the registry away for a while is not asked every millisecond. */
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final Decoder decoder;
    private final AtomicLong read = new AtomicLong();
    private volatile boolean closed;
    private Thread thread;

    private LbConfigFollower(KafkaConsumer<byte[], byte[]> consumer, String topic, Decoder decoder) {
        this.consumer = consumer;
        this.topic = topic;
        this.decoder = decoder;
    }

    /**
     * Reads the topic up to its end (at most {@code catchUp}), then follows it on a daemon thread.
     * A cluster that does not answer, or a topic that does not exist, is logged: the formats are
     * then known as the topology reads them.
     *
     * @param consumerConfig how to reach the cluster (no group is used: the partitions are assigned)
     * @return the follower, or null when the topic could not be read
     */
    static LbConfigFollower start(Map<String, Object> consumerConfig, String topic, Decoder decoder, Duration catchUp) {
        Map<String, Object> c = new HashMap<>(consumerConfig);
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // reading must not create the topic (with the broker's defaults, not compacted)
        c.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        LbConfigFollower f = new LbConfigFollower(consumer, topic, decoder);
        try {
            if (!f.catchUp(catchUp)) {
                consumer.close();
                return null;
            }
        } catch (RuntimeException e) {
            // the cluster or the Schema Registry not answering: start anyway, as without the history
            LOG.warn("could not read {} from its start ({}): the log formats it publishes are known as the topology reads them",
                    topic, e.toString());
            consumer.close();
            return null;
        }
        f.thread = new Thread(f::follow, "hcwatch-lb-config");
        f.thread.setDaemon(true);
        f.thread.start();
        return f;
    }

    /** @return false when the topic does not exist */
    private boolean catchUp(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        List<PartitionInfo> infos = consumer.partitionsFor(topic, wait);
        if (infos == null || infos.isEmpty()) {
            LOG.warn("{} does not exist: the log formats the collector publishes are known once it does and the topology reads it",
                    topic);
            return false;
        }
        List<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, wait);
        while (!reached(end) && System.nanoTime() < deadline) {
            take(consumer.poll(Duration.ofMillis(100)));
        }
        if (!reached(end)) {
            LOG.warn("read {} records of {} from its start in {}, not all: the rest is read as it comes", read.get(), topic, wait);
        }
        return true;
    }

    private void follow() {
        try {
            while (!closed) {
                try {
                    take(consumer.poll(Duration.ofSeconds(1)));
                } catch (WakeupException e) {
                    // closing
                } catch (RuntimeException e) {
                    // a failure of one poll (a broker away, a registry outage): the next poll tries again
                    LOG.warn("following {}: {}", topic, e.toString());
                    try {
                        Sleeper.SYSTEM.sleep(RETRY_PAUSE);
                    } catch (InterruptedException interrupted) {
                        // an interrupted thread's every poll throws at once: stop rather than spin
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void take(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() != null) {
                decoder.decode(r.value());
                read.incrementAndGet();
            }
        }
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Records handed to the decoder so far. */
    long read() {
        return read.get();
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
