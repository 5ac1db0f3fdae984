package io.hcwatch.sink.consume;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes the alerts topic at least once, in order per partition (so per {@code dedup_key}).
 *
 * <p>Delivery runs on worker threads, one batch per partition at a time, while this thread keeps
 * polling with that partition paused: a retry that lasts minutes blocks its own partition, not the
 * others, and never exceeds {@code max.poll.interval.ms}. Offsets are committed only up to the
 * last record that was delivered or dead-lettered.
 */
public final class AlertConsumer implements Runnable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AlertConsumer.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);
    /** How long an abandoned batch may take to notice its interrupt (an HTTP request or a dead-letter send in flight). */
    private static final Duration ABANDON_TIMEOUT = Duration.ofSeconds(30);

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final AlertRecordHandler handler;
    private final ExecutorService workers;
    private final Duration shutdownGrace;
    private final Duration failureBackoff;
    private final Clock clock;

    private final Map<TopicPartition, PartitionBatch> inFlight = new HashMap<>();
    private final Map<TopicPartition, Future<?>> futures = new HashMap<>();
    private final Map<TopicPartition, OffsetAndMetadata> toCommit = new HashMap<>();
    private final Map<TopicPartition, Instant> retryAt = new HashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;
    private volatile boolean started;
    private volatile boolean polling;
    private volatile RuntimeException failure;

    /**
     * @param consumer a consumer with {@code enable.auto.commit=false}; this class owns and closes it
     * @param shutdownGrace how long close and rebalances wait for in-flight deliveries before abandoning them
     * @param failureBackoff how long a partition stays paused after an unexpected error before its record is tried again
     */
    public AlertConsumer(Consumer<byte[], byte[]> consumer, String topic, AlertRecordHandler handler, int deliveryThreads,
            Duration shutdownGrace, Duration failureBackoff, Clock clock) {
        this.consumer = consumer;
        this.topic = topic;
        this.handler = handler;
        AtomicInteger threadNumber = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(deliveryThreads, r -> {
            Thread thread = new Thread(r, "hcwatch-sink-delivery-" + threadNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.shutdownGrace = shutdownGrace;
        this.failureBackoff = failureBackoff;
        this.clock = clock;
    }

    /** True once the first poll has returned, until the loop ends. */
    public boolean isRunning() {
        return polling && !closing;
    }

    /** The error that ended the loop, if one did. */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure);
    }

    /** Waits until the loop has ended, by {@link #close()} or by an error ({@link #failure()}). */
    public void awaitEnd() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void run() {
        started = true;
        try {
            consumer.subscribe(List.of(topic), new Rebalance());
            while (!closing) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(POLL_TIMEOUT);
                } catch (WakeupException e) {
                    continue;
                }
                polling = true;
                dispatch(records);
                reapFinished();
                commit();
                resumeDue();
            }
        } catch (RuntimeException e) {
            failure = e;
            LOG.error("alert consumer stopped on an error", e);
        } finally {
            polling = false;
            shutDown();
            stopped.countDown();
        }
    }

    /** Stops polling, lets in-flight deliveries finish within the grace period, commits what was delivered. */
    @Override
    public void close() {
        closing = true;
        consumer.wakeup();
        if (!started) {
            shutDown();
            return;
        }
        try {
            if (!stopped.await(shutdownGrace.plus(ABANDON_TIMEOUT).plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.error("alert consumer did not stop in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            if (inFlight.containsKey(partition)) {
                throw new IllegalStateException("records for " + partition + " while its previous batch is in flight");
            }
            consumer.pause(Set.of(partition));
            PartitionBatch batch = new PartitionBatch(partition, records.records(partition), handler);
            inFlight.put(partition, batch);
            futures.put(partition, workers.submit(batch));
        }
    }

    private void reapFinished() {
        for (Iterator<PartitionBatch> it = inFlight.values().iterator(); it.hasNext(); ) {
            PartitionBatch batch = it.next();
            if (!batch.isDone()) {
                continue;
            }
            it.remove();
            futures.remove(batch.partition());
            if (batch.committableOffset() >= 0) {
                toCommit.put(batch.partition(), new OffsetAndMetadata(batch.committableOffset()));
            }
            if (batch.handledAll()) {
                consumer.resume(Set.of(batch.partition()));
            } else if (!closing) {
                consumer.seek(batch.partition(), batch.firstUnhandledOffset());
                retryAt.put(batch.partition(), clock.instant().plus(failureBackoff));
            }
        }
    }

    private void resumeDue() {
        Instant now = clock.instant();
        for (Iterator<Map.Entry<TopicPartition, Instant>> it = retryAt.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Instant> entry = it.next();
            if (!entry.getValue().isAfter(now)) {
                it.remove();
                if (consumer.assignment().contains(entry.getKey())) {
                    consumer.resume(Set.of(entry.getKey()));
                }
            }
        }
    }

    private void commit() {
        if (toCommit.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(toCommit);
            toCommit.clear();
        } catch (WakeupException e) {
            // close() woke us; the commit is retried on the way out.
        } catch (KafkaException e) {
            LOG.warn("could not commit offsets {}; will retry, and alerts after the last commit may be delivered again",
                    toCommit, e);
            toCommit.keySet().retainAll(consumer.assignment());
        }
    }

    /** Waits up to the grace period for the batches to finish, then interrupts the rest. */
    private void finishOrAbandon(Collection<TopicPartition> partitions) {
        List<PartitionBatch> batches = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            PartitionBatch batch = inFlight.get(partition);
            if (batch != null) {
                batch.requestStop();
                batches.add(batch);
            }
        }
        Instant deadline = clock.instant().plus(shutdownGrace);
        try {
            for (PartitionBatch batch : batches) {
                long left = Math.max(0, Duration.between(clock.instant(), deadline).toMillis());
                if (!batch.awaitDone(left, TimeUnit.MILLISECONDS)) {
                    LOG.info("{}: abandoning an in-flight delivery after the {} ms grace period", batch.partition(),
                            shutdownGrace.toMillis());
                    futures.get(batch.partition()).cancel(true);
                    if (!batch.awaitDone(ABANDON_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        LOG.error("{}: delivery thread did not stop; its alerts will be delivered again", batch.partition());
                        inFlight.remove(batch.partition());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void shutDown() {
        try {
            finishOrAbandon(new ArrayList<>(inFlight.keySet()));
            reapFinished();
            commit();
        } catch (RuntimeException e) {
            LOG.warn("could not finish cleanly; alerts after the last commit will be delivered again", e);
        } finally {
            workers.shutdownNow();
            consumer.close();
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            finishOrAbandon(partitions);
            reapFinished();
            commit();
            forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            // Another member may own these already: stop at once and commit nothing for them.
            for (TopicPartition partition : partitions) {
                PartitionBatch batch = inFlight.remove(partition);
                if (batch != null) {
                    batch.requestStop();
                    futures.remove(partition).cancel(true);
                }
            }
            forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            LOG.info("delivering alerts from {}", partitions);
        }

        private void forget(Collection<TopicPartition> partitions) {
            partitions.forEach(p -> {
                retryAt.remove(p);
                toCommit.remove(p);
                inFlight.remove(p);
                futures.remove(p);
            });
        }
    }
}
