package io.hcwatch.input;

import io.hcwatch.avro.internal.TargetTraffic;
import org.HdrHistogram.Histogram;

/**
 * One second of one target group's traffic on one input partition.
 *
 * @param live the targets' latency sketches as the ingest made them, when the summary was made in
 *             this process: replay hands it to the monitor in-process, which would otherwise decode
 *             every sketch the ingest just encoded. Null when read from the wire or a store, where
 *             the sketches are the bytes in the counts.
 */
public record TargetSummary(TargetTraffic traffic, LiveLatencies live) implements Summary, FleetInput {

    /** Latency sketches per target, written into the counts only when the summary leaves the process. */
    public interface LiveLatencies {

        /** The target's sketch, null when it logged no latency; not to be modified. */
        Histogram of(String target);

        /** Sets every count's latency bytes from its sketch. */
        void writeInto(TargetTraffic traffic);
    }

    /** A summary whose sketches are already bytes in its counts. */
    public TargetSummary(TargetTraffic traffic) {
        this(traffic, null);
    }

    @Override
    public long eventTime() {
        return traffic.getBucketStart();
    }

    @Override
    public <R> R accept(Telemetry.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    /** The traffic with every sketch in its counts: what is written to a topic or a store. */
    @Override
    public Object avro() {
        if (live != null) {
            live.writeInto(traffic);
        }
        return traffic;
    }

    /** Equal when written out equal: a live summary and the same one read back are the same second. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TargetSummary other && avro().equals(other.avro());
    }

    @Override
    public int hashCode() {
        return avro().hashCode();
    }

    @Override
    public <R> R accept(Pending.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    @Override
    public <R> R accept(Summary.Cases<R> cases) {
        return cases.targetSummary(this);
    }

    @Override
    public <R> R accept(FleetInput.Cases<R> cases) {
        return cases.targetSummary(this);
    }
}
