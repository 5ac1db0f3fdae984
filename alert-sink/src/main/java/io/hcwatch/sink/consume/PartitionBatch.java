package io.hcwatch.sink.consume;

import io.hcwatch.serde.SchemaRegistryUnavailableException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records one poll returned for one partition, handled in offset order on a worker thread
 * while the poll thread keeps the partition paused. Remembers how far it got, so the poll thread
 * commits exactly what was handled and seeks back to the rest.
 */
final class PartitionBatch implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionBatch.class);

    private final TopicPartition partition;
    private final List<ConsumerRecord<byte[], byte[]>> records;
    private final AlertRecordHandler handler;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile long nextOffset = -1;

    PartitionBatch(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> records, AlertRecordHandler handler) {
        this.partition = partition;
        this.records = List.copyOf(records);
        this.handler = handler;
    }

    @Override
    public void run() {
        try {
            for (ConsumerRecord<byte[], byte[]> record : records) {
                if (stopRequested || Thread.currentThread().isInterrupted()) {
                    return;
                }
                handler.handle(record);
                nextOffset = record.offset() + 1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.info("{}: abandoned the alert at offset {}; it will be delivered again", partition, firstUnhandledOffset());
        } catch (SchemaRegistryUnavailableException e) {
            LOG.warn("{}: the alert at offset {} waits for the schema registry: {}", partition, firstUnhandledOffset(),
                    e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("{}: could not handle the alert at offset {}; will try it again", partition, firstUnhandledOffset(), e);
        } finally {
            done.countDown();
        }
    }

    /** Handle no record after the current one. */
    void requestStop() {
        stopRequested = true;
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    boolean awaitDone(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit);
    }

    TopicPartition partition() {
        return partition;
    }

    /** The offset to commit (one past the last handled record), or -1 when none was handled. */
    long committableOffset() {
        return nextOffset;
    }

    boolean handledAll() {
        return nextOffset == records.get(records.size() - 1).offset() + 1;
    }

    long firstUnhandledOffset() {
        return nextOffset >= 0 ? nextOffset : records.get(0).offset();
    }
}
