package io.hcwatch.collect;

import io.hcwatch.observability.LogText;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs a source's failures without flooding: a failure is logged when it differs from the last one
 * logged for that source, and a repeat at most once per {@code repeatEvery} (saying how many were
 * not logged). A recovery is logged once. Sources and messages carry names from input (hosts,
 * target groups, object keys, a service's answer), so they are written escaped ({@link LogText}).
 * Thread-safe.
 */
public final class ErrorLog {

    private final Logger log;
    private final long repeatEveryNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Entry> bySource = new HashMap<>();

    private static final class Entry {
        String message;
        long loggedAt;
        long suppressed;
        long failures;
    }

    public ErrorLog(Logger log, Duration repeatEvery, LongSupplier nanoTime) {
        this.log = log;
        this.repeatEveryNanos = repeatEvery.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * @param detail appended to the line but not compared (attempt counts, next retry)
     * @return whether this call wrote a log line
     */
    public synchronized boolean failure(String source, String reason, String message, String detail) {
        String text = source + ": " + reason + ": " + message;
        long now = nanoTime.getAsLong();
        Entry e = bySource.computeIfAbsent(source, k -> new Entry());
        e.failures++;
        if (text.equals(e.message) && now - e.loggedAt < repeatEveryNanos) {
            e.suppressed++;
            return false;
        }
        if (text.equals(e.message) && e.suppressed > 0) {
            log.warn("{}{} ({} more times since last logged)", LogText.of(text), detail, e.suppressed);
        } else {
            log.warn("{}{}", LogText.of(text), detail);
        }
        e.message = text;
        e.loggedAt = now;
        e.suppressed = 0;
        return true;
    }

    /** Logs that {@code source} works again, once after a run of failures. */
    public synchronized void recovered(String source) {
        Entry e = bySource.remove(source);
        if (e != null) {
            log.info("{}: working again after {} failed attempts", LogText.of(source), e.failures);
        }
    }
}
