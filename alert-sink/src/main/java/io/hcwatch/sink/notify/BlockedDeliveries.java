package io.hcwatch.sink.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The deliveries a retryable failure (429, 5xx, network) holds right now. Each one keeps its
 * partition waiting and nothing behind it goes out, so this is what tells an operator (metrics,
 * {@code /ready}) that alerts are stuck, on which receiver, why and since when.
 */
public final class BlockedDeliveries {

    private final Clock clock;
    private final Set<Blocked> current = ConcurrentHashMap.newKeySet();

    public BlockedDeliveries(Clock clock) {
        this.clock = clock;
    }

    /** A delivery to {@code sink} failed for the first time; close the result when it ends, however it ends. */
    public Blocked start(String sink, String statusClass) {
        Blocked blocked = new Blocked(sink, clock.instant(), statusClass);
        current.add(blocked);
        return blocked;
    }

    /** Deliveries to {@code sink} held right now whose last failure was of {@code statusClass}. */
    public int count(String sink, String statusClass) {
        return (int) current.stream().filter(b -> b.sink.equals(sink) && b.statusClass.equals(statusClass)).count();
    }

    /** Since the first failure of the longest-held delivery to {@code sink}; zero when none is held. */
    public Duration longest(String sink) {
        Instant now = clock.instant();
        return current.stream().filter(b -> b.sink.equals(sink)).map(b -> b.since)
                .min(Comparator.naturalOrder())
                .map(since -> Duration.between(since, now))
                .orElse(Duration.ZERO);
    }

    /** One line per receiver that holds deliveries, e.g. for {@code /ready}; empty when none does. */
    public List<String> describe() {
        TreeMap<String, List<Blocked>> bySink = current.stream()
                .collect(Collectors.groupingBy(b -> b.sink, TreeMap::new, Collectors.toList()));
        return bySink.entrySet().stream().map(e -> {
            Blocked oldest = e.getValue().stream().min(Comparator.comparing(b -> b.since)).orElseThrow();
            return e.getKey() + ": " + e.getValue().size() + " partition(s) waiting for " + longest(e.getKey()).toSeconds()
                    + " s on retryable failures (longest held, last failure " + oldest.statusClass
                    + "); retrying, nothing is dead-lettered";
        }).toList();
    }

    /** One held delivery. */
    public final class Blocked implements AutoCloseable {

        private final String sink;
        private final Instant since;
        private volatile String statusClass;

        private Blocked(String sink, Instant since, String statusClass) {
            this.sink = sink;
            this.since = since;
            this.statusClass = statusClass;
        }

        /** Another attempt failed; {@code statusClass} may differ from the last (a 503 turning into 429s). */
        public void failedAgain(String statusClass) {
            this.statusClass = statusClass;
        }

        public Instant since() {
            return since;
        }

        /** The delivery ended: delivered, refused for good, or abandoned on shutdown. */
        @Override
        public void close() {
            current.remove(this);
        }
    }
}
