package io.hcwatch.sink.notify;

import io.hcwatch.avro.v1.Alert;

/** One receiver of alerts (PagerDuty, stdout). Makes exactly one attempt per call; retrying is someone else's job. */
public interface Notifier {

    /** A short, stable name used in logs, metric tags and dead-letter reasons, e.g. {@code pagerduty}. */
    String name();

    /**
     * @throws InterruptedException when the calling thread is interrupted; the alert then counts as
     *     not delivered and the caller must not commit it
     */
    DeliveryResult deliver(Alert alert) throws InterruptedException;
}
