package io.hcwatch.collect.alblogs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often each object failed for a reason of its own (a record Kafka refuses, an internal error),
 * and the last such error, so that an object that can never succeed stops coming back: SQS's own
 * receive count also counts Kafka and S3 outages, which must not cost an object its delivery. Held
 * in memory for the objects in flight (the oldest forgotten past {@code capacity}); a restart starts
 * the counts again. Only the poll thread uses it.
 */
final class AttemptLedger {

    record Failures(int count, String last) {
    }

    private final int capacity;
    private final Map<String, Failures> failures;

    AttemptLedger(int capacity) {
        this.capacity = capacity;
        this.failures = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
                return size() > AttemptLedger.this.capacity;
            }
        };
    }

    /** @return the object's failures, this one included */
    Failures failed(String id, String error) {
        Failures before = failures.remove(id);
        Failures now = new Failures(before == null ? 1 : before.count() + 1, error);
        failures.put(id, now);
        return now;
    }

    /** @return the object's failures so far; none when it has not failed */
    Failures of(String id) {
        return failures.getOrDefault(id, new Failures(0, null));
    }

    void forget(String id) {
        failures.remove(id);
    }
}
