package io.hcwatch.sink.notify;

import io.hcwatch.avro.v1.Alert;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries a {@link Notifier} while it answers {@link DeliveryResult.Retryable}, with the waits of a
 * {@link RetryPolicy}. Never returns {@code Retryable}: when the policy's limit is reached the
 * outcome becomes {@code Permanent} with reason {@code <name>_retries_exhausted}, so the caller
 * dead-letters it instead of holding its partition forever.
 */
public final class RetryingNotifier implements Notifier {

    private static final Logger LOG = LoggerFactory.getLogger(RetryingNotifier.class);

    private final Notifier delegate;
    private final RetryPolicy policy;
    private final Clock clock;
    private final Sleeper sleeper;
    private final DoubleSupplier random;
    private final DeliveryMetrics metrics;

    public RetryingNotifier(Notifier delegate, RetryPolicy policy, DeliveryMetrics metrics) {
        this(delegate, policy, metrics, Clock.systemUTC(), Sleeper.SYSTEM, () -> ThreadLocalRandom.current().nextDouble());
    }

    public RetryingNotifier(Notifier delegate, RetryPolicy policy, DeliveryMetrics metrics,
            Clock clock, Sleeper sleeper, DoubleSupplier random) {
        this.delegate = delegate;
        this.policy = policy;
        this.metrics = metrics;
        this.clock = clock;
        this.sleeper = sleeper;
        this.random = random;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public DeliveryResult deliver(Alert alert) throws InterruptedException {
        Instant start = clock.instant();
        int attempts = 0;
        while (true) {
            DeliveryResult result = delegate.deliver(alert);
            attempts++;
            if (!(result instanceof DeliveryResult.Retryable retryable)) {
                return result;
            }
            Duration elapsed = Duration.between(start, clock.instant());
            Duration wait = policy.backoff(attempts, random);
            if (!policy.allowsAnother(attempts, elapsed, wait)) {
                LOG.error("{}: giving up on {} after {} attempts in {}s: {}", name(), alert.getDedupKey(), attempts,
                        elapsed.toSeconds(), retryable.detail());
                return DeliveryResult.permanent(name() + "_retries_exhausted", retryable.statusClass(),
                        "gave up after " + attempts + " attempts in " + elapsed.toSeconds() + "s; last: "
                                + retryable.detail());
            }
            LOG.warn("{}: delivery of {} failed ({}), attempt {}; retrying in {} ms", name(), alert.getDedupKey(),
                    retryable.detail(), attempts, wait.toMillis());
            metrics.retried(name(), retryable.statusClass());
            sleeper.sleep(wait);
        }
    }
}
