package io.hcwatch.sink.notify;

import io.hcwatch.observability.LogText;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.retry.Sleeper;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a {@link Notifier} while it answers {@link DeliveryResult.Retryable}, with the waits of an
 * {@link ExponentialBackoff}, for as long as that lasts: giving up would mean dead-lettering and
 * committing an alert the receiver could take later, and a lost {@code resolve} leaves an incident
 * open. So this never returns {@code Retryable}; it returns when the receiver takes the alert or
 * refuses it for good, and otherwise ends only by the interrupt that shutdown and rebalancing send
 * after {@code shutdown.grace.ms} (the alert is then not committed and is delivered again later).
 * While it waits, {@link BlockedDeliveries} says so.
 */
public final class RetryingNotifier implements Notifier {

    private static final Logger LOG = LoggerFactory.getLogger(RetryingNotifier.class);

    private final Notifier delegate;
    private final ExponentialBackoff backoff;
    private final DeliveryMetrics metrics;
    private final BlockedDeliveries blocked;
    private final Sleeper sleeper;
    private final DoubleSupplier random;

    public RetryingNotifier(Notifier delegate, ExponentialBackoff backoff, DeliveryMetrics metrics, BlockedDeliveries blocked,
            Sleeper sleeper) {
        this(delegate, backoff, metrics, blocked, sleeper, () -> ThreadLocalRandom.current().nextDouble());
    }

    public RetryingNotifier(Notifier delegate, ExponentialBackoff backoff, DeliveryMetrics metrics, BlockedDeliveries blocked,
            Sleeper sleeper, DoubleSupplier random) {
        this.delegate = delegate;
        this.backoff = backoff;
        this.metrics = metrics;
        this.blocked = blocked;
        this.sleeper = sleeper;
        this.random = random;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public DeliveryResult deliver(Page page) throws InterruptedException {
        DeliveryResult result = delegate.deliver(page);
        if (!(result instanceof DeliveryResult.Retryable first)) {
            return result;
        }
        try (BlockedDeliveries.Blocked held = blocked.start(name(), first.statusClass())) {
            DeliveryResult.Retryable failure = first;
            for (long retry = 1; ; retry++) {
                Duration wait = backoff.delay((int) Math.min(retry, Integer.MAX_VALUE), random);
                LOG.warn("{}: delivery of {} failed ({}), failing since {}; retrying in {} ms (retry {})", name(),
                        LogText.of(page.dedupKey()), LogText.of(failure.detail()), held.since(), wait.toMillis(), retry);
                metrics.retried(name(), failure.statusClass());
                sleeper.sleep(wait);
                result = delegate.deliver(page);
                if (!(result instanceof DeliveryResult.Retryable again)) {
                    LOG.info("{}: {} {} after {} retries (failing since {})", name(), outcome(result), LogText.of(page.dedupKey()),
                            retry, held.since());
                    return result;
                }
                failure = again;
                held.failedAgain(failure.statusClass());
            }
        }
    }

    private static String outcome(DeliveryResult result) {
        return result instanceof DeliveryResult.Delivered ? "delivered" : "refused";
    }
}
