package io.hcwatch.sink.consume;

import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.serde.SchemaRegistryUnavailableException;
import io.hcwatch.observability.LogText;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.DeliveryResult;
import io.hcwatch.sink.notify.Notifier;
import io.hcwatch.sink.notify.Page;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one record of the topic the sink delivers (incidents, or alerts) to its end: delivered to
 * every receiver, or written to the dead-letter topic when a receiver refuses it for good or it is
 * not a page; a page whose writer schema the registry cannot serve yet is neither, and throws. When
 * this returns normally the record may be committed; when it throws, it must not be.
 *
 * <p>The receivers are expected to retry on their own ({@code RetryingNotifier}, which waits out
 * retryable failures however long they last). A retryable result that still reaches this class is
 * never dead-lettered: that would commit a page the receiver could take later.
 */
public final class AlertRecordHandler {

    private static final Logger LOG = LoggerFactory.getLogger(AlertRecordHandler.class);

    private final PageDecoder decoder;
    private final List<Notifier> notifiers;
    private final DeadLetterWriter deadLetters;
    private final DeliveryMetrics metrics;
    private final RegistryOutage registryOutage;
    private final Clock clock;

    public AlertRecordHandler(PageDecoder decoder, List<Notifier> notifiers, DeadLetterWriter deadLetters,
            DeliveryMetrics metrics, RegistryOutage registryOutage, Clock clock) {
        this.decoder = decoder;
        this.notifiers = List.copyOf(notifiers);
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.registryOutage = registryOutage;
        this.clock = clock;
    }

    public void handle(ConsumerRecord<byte[], byte[]> record) throws InterruptedException {
        Page page;
        try {
            page = record.value() == null ? null : decoder.decode(record.topic(), record.value());
            registryOutage.answered();
        } catch (SchemaRegistryUnavailableException e) {
            // The page may be a resolve: dead-lettering and committing it would leave its incident open.
            registryOutage.failed(e.getMessage());
            throw e;
        } catch (RuntimeException e) {
            deadLetter(record, "undecodable", describe(e));
            return;
        }
        if (page == null) {
            deadLetter(record, "undecodable", "record has no value");
            return;
        }
        List<String> errors = new ArrayList<>();
        String firstReason = null;
        for (Notifier notifier : notifiers) {
            Instant start = clock.instant();
            DeliveryResult result = notifier.deliver(page);
            Duration latency = Duration.between(start, clock.instant());
            if (result instanceof DeliveryResult.Delivered) {
                metrics.delivered(notifier.name(), page.type(), latency);
                LOG.debug("{}: delivered {}{} ({} ms)", notifier.name(), page.resolves() ? "the resolve of " : "",
                        LogText.of(page.dedupKey()), latency.toMillis());
                continue;
            }
            if (result instanceof DeliveryResult.Retryable retryable) {
                throw new IllegalStateException(notifier.name() + " cannot take " + page.dedupKey()
                        + " yet and does not retry by itself: " + retryable.detail());
            }
            DeliveryResult.Permanent failure = (DeliveryResult.Permanent) result;
            metrics.deadLettered(notifier.name(), failure.statusClass(), latency);
            firstReason = firstReason == null ? failure.reason() : firstReason;
            errors.add(notifier.name() + ": " + failure.responseBody());
        }
        if (firstReason != null) {
            LOG.warn("dead-lettering {}{} ({}): {}", page.resolves() ? "the resolve of " : "", LogText.of(page.dedupKey()),
                    firstReason, LogText.of(String.join("; ", errors)));
            deadLetters.write(record, firstReason, String.join("; ", errors));
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, String reason, String error) throws InterruptedException {
        LOG.warn("dead-lettering {}-{}@{} ({}): {}", record.topic(), record.partition(), record.offset(), reason, LogText.of(error));
        metrics.deadLettered("none", reason, null);
        deadLetters.write(record, reason, error);
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(" <- ").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage());
        }
        return text.toString();
    }
}
