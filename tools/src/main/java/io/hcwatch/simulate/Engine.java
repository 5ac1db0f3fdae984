package io.hcwatch.simulate;

import io.hcwatch.topology.Source;
import java.nio.charset.StandardCharsets;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The discrete-event core: actions run in time order, and the telemetry they write is held
 * until nothing scheduled later can write anything earlier, so the output comes out in event
 * time order while only the records still in flight (a request's log line waits for its
 * response) sit in memory. An action at time t only ever writes records timed t or later.
 */
final class Engine {

    private final PriorityQueue<Scheduled> events = new PriorityQueue<>();
    private final PriorityQueue<Pending> pending = new PriorityQueue<>();
    private final long start;
    private final long end;
    private long seq;
    private long now;
    private long emitted;
    private boolean done;

    Engine(long start, long end) {
        this.start = start;
        this.end = end;
        this.now = start;
    }

    long now() {
        return now;
    }

    long start() {
        return start;
    }

    long end() {
        return end;
    }

    long emitted() {
        return emitted;
    }

    boolean done() {
        return done;
    }

    void schedule(long at, Runnable action) {
        if (at < now) {
            throw new IllegalArgumentException("cannot schedule in the past: " + at + " < " + now);
        }
        events.add(new Scheduled(at, seq++, action));
    }

    /** Records written past the end of the run are dropped: they would describe the future. */
    void emit(Source source, long eventTime, String key, String value) {
        if (eventTime < now) {
            throw new IllegalStateException("telemetry at " + eventTime + " written at " + now);
        }
        if (eventTime < end) {
            pending.add(new Pending(eventTime, seq++, source, key, value));
        }
    }

    /**
     * Runs the next action and hands every record that can no longer be preceded to {@code sink}.
     * Returns false once the run is over (everything handed out).
     */
    boolean step(Consumer<Telemetry> sink) {
        if (done) {
            return false;
        }
        Scheduled next = events.poll();
        if (next == null || next.at >= end) {
            drain(Long.MAX_VALUE, sink);
            now = end;
            done = true;
            return false;
        }
        now = next.at;
        next.action.run();
        Scheduled following = events.peek();
        drain(following == null ? Long.MAX_VALUE : following.at, sink);
        return true;
    }

    private void drain(long before, Consumer<Telemetry> sink) {
        while (!pending.isEmpty() && pending.peek().at < before) {
            Pending p = pending.poll();
            emitted++;
            sink.accept(new Telemetry(p.source, p.at, p.value.getBytes(StandardCharsets.UTF_8), p.key));
        }
    }

    private record Scheduled(long at, long seq, Runnable action) implements Comparable<Scheduled> {
        @Override
        public int compareTo(Scheduled o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private record Pending(long at, long seq, Source source, String key, String value) implements Comparable<Pending> {
        @Override
        public int compareTo(Pending o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
