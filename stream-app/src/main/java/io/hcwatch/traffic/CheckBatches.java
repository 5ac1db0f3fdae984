package io.hcwatch.traffic;

import io.hcwatch.avro.v1.HealthCheckResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Health checks of one input partition held per target group and second, so they cross the
 * repartition topic as one record per batch instead of one each: a record's way through Kafka
 * Streams (forward, produce, fetch, deserialise, metrics) costs far more than judging a check.
 * A batch leaves when its second is over (the same rule as traffic summaries), when it is full,
 * or on the wall-clock flush; checks keep their order within a target group.
 */
public final class CheckBatches {

    private final int capacity;
    private final Map<Bucket, List<HealthCheckResult>> pending = new LinkedHashMap<>();

    private record Bucket(String targetGroup, long second) {
    }

    private static Bucket bucketOf(HealthCheckResult h) {
        return new Bucket(h.getTargetGroup(), Math.floorDiv(h.getTs().toEpochMilli(), 1000) * 1000);
    }

    /** @param capacity checks per batch at most, so a record stays far below the broker's size limit */
    public CheckBatches(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
    }

    /** Holds a check; returns its batch, taken out, once that is full (else null). */
    public List<HealthCheckResult> add(HealthCheckResult h) {
        Bucket bucket = bucketOf(h);
        List<HealthCheckResult> batch = pending.computeIfAbsent(bucket, b -> new ArrayList<>());
        batch.add(h);
        if (batch.size() >= capacity) {
            pending.remove(bucket);
            return batch;
        }
        return null;
    }

    /** Puts back a check taken by {@link #snapshot()} after a restart (never sends: the batch was below capacity). */
    public void restore(HealthCheckResult h) {
        pending.computeIfAbsent(bucketOf(h), b -> new ArrayList<>()).add(h);
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Start of the oldest second a batch is held for; {@code Long.MAX_VALUE} when none is. */
    public long oldestSecond() {
        long oldest = Long.MAX_VALUE;
        for (Bucket b : pending.keySet()) {
            oldest = Math.min(oldest, b.second());
        }
        return oldest;
    }

    /** Takes out every batch whose second started before {@code second}, oldest second first. */
    public List<List<HealthCheckResult>> drainBefore(long second) {
        List<Map.Entry<Bucket, List<HealthCheckResult>>> out = new ArrayList<>();
        for (Iterator<Map.Entry<Bucket, List<HealthCheckResult>>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Bucket, List<HealthCheckResult>> e = it.next();
            if (e.getKey().second() < second) {
                out.add(e);
                it.remove();
            }
        }
        // stable: batches of one second keep the order their target groups were first seen in
        out.sort(Comparator.comparingLong(e -> e.getKey().second()));
        return out.stream().map(Map.Entry::getValue).toList();
    }

    /** The held checks in the order they were added per batch, left in place (for the state store). */
    public List<HealthCheckResult> snapshot() {
        List<HealthCheckResult> out = new ArrayList<>();
        pending.values().forEach(out::addAll);
        return out;
    }
}
