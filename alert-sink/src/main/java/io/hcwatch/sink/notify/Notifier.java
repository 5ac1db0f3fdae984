package io.hcwatch.sink.notify;


/** One receiver of pages (PagerDuty, stdout). Makes exactly one attempt per call; retrying is someone else's job. */
public interface Notifier {

    /** A short, stable name used in logs, metric tags and dead-letter reasons, e.g. {@code pagerduty}. */
    String name();

    /**
     * @throws InterruptedException when the calling thread is interrupted; the page then counts as
     *     not delivered and the caller must not commit it
     */
    DeliveryResult deliver(Page page) throws InterruptedException;
}
