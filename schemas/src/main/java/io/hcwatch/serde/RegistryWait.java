package io.hcwatch.serde;

import io.hcwatch.retry.ExponentialBackoff;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits out a Schema Registry outage for a thread that cannot put its record aside: a Kafka
 * Streams processor or serializer, where throwing would dead-letter a good record or replace the
 * stream thread again and again. Retries with backoff while the registry is unavailable, each wait
 * far below {@code max.poll.interval.ms}, until it answers or {@link #stop()} is called.
 *
 * <p>Given to the Avro serdes through their configuration under {@link SerdeConfig#REGISTRY_WAIT}.
 */
public final class RegistryWait {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryWait.class);

    private final ExponentialBackoff backoff;
    private final RegistryOutage outage;
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** @param maxWait the longest single wait; keep it well below max.poll.interval.ms */
    public RegistryWait(Duration firstWait, Duration maxWait, RegistryOutage outage) {
        this.backoff = new ExponentialBackoff(firstWait, maxWait);
        this.outage = outage;
    }

    /**
     * What {@code work} returns once the registry answers it.
     *
     * @throws SchemaRegistryUnavailableException when stopped (or interrupted) before the registry answered
     */
    public <T> T call(Supplier<T> work) {
        for (int retry = 1; ; retry++) {
            try {
                T result = work.get();
                if (outage.isOngoing()) {
                    LOG.info("schema registry answers again");
                }
                outage.answered();
                return result;
            } catch (SchemaRegistryUnavailableException e) {
                outage.failed(e.getMessage());
                Duration wait = backoff.delay(retry);
                LOG.warn("{}; waiting {} ms before asking again (attempt {})", e.getMessage(), wait.toMillis(), retry);
                if (!pause(wait)) {
                    throw e;
                }
            }
        }
    }

    /** Ends every wait now and every later one at once: the process is closing. */
    public void stop() {
        stopped.countDown();
    }

    private boolean pause(Duration wait) {
        try {
            return !stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
