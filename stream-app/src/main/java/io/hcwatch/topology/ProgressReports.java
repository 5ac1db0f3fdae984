package io.hcwatch.topology;

import io.hcwatch.time.UpstreamClock;
import io.hcwatch.topology.Routed.Destination;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * How far one input partition has got, told to every monitor its source paces when that changed:
 * the monitors hold what is ahead of their slowest upstream, so records read far apart still meet
 * in event-time order (see {@link io.hcwatch.time.MonitorClock}). A report goes out after what it
 * covers, on the same topics, so it never overtakes a record it vouches for. A source that paces
 * no monitor (configs) reports nothing.
 */
final class ProgressReports {

    private final Source source;
    private final UpstreamClock clock;
    private final Outbox out;
    private final BooleanSupplier lagging;
    /** Something was sent on while the current record was taken in: report once it is done. */
    private boolean due;

    /**
     * @param settings the idle timeout (wall time without a record, nothing held, after which the
     *                 partition reports itself idle; counted in ticks too) and the source's delay
     * @param lagging  whether the partition's consumer still lags its end (then it is only waiting for a fetch)
     */
    ProgressReports(Source source, IngestSettings settings, Outbox out, BooleanSupplier lagging) {
        this.source = source;
        long idleMillis = settings.idleTimeout().toMillis();
        this.clock = source.paces().isEmpty() ? null
                : new UpstreamClock(idleMillis, (int) (idleMillis / Math.max(1, settings.tickInterval().toMillis())),
                        settings.delay().toMillis());
        this.out = out;
        this.lagging = lagging;
    }

    /** A record of event time {@code eventTime} was read. */
    void read(long eventTime, long wallNow) {
        if (clock != null) {
            clock.read(eventTime, wallNow);
        }
    }

    /** A value without a usable time was read (rejected, skipped, refused): the partition is not idle. */
    void readUntimed(long wallNow) {
        if (clock != null) {
            clock.readUntimed(wallNow);
        }
    }

    /** Whether the partition's consumer is known to have records not yet read. */
    boolean lagging() {
        return lagging.getAsBoolean();
    }

    /** A wall-clock tick (idle detection). */
    void tick() {
        if (clock != null) {
            clock.tick();
        }
    }

    /** A second or a record was sent on: progress may have moved. */
    void due() {
        due = true;
    }

    /** Reports if something was sent on since the last time; forgets that it was either way. */
    void reportIfDue(LongSupplier oldestHeld, long wallNow) {
        if (due) {
            due = false;
            report(oldestHeld, wallNow);
        }
    }

    /** Drops a report that was due: the record that made it due failed. */
    void forgetDue() {
        due = false;
    }

    /** @param oldestHeld the start of the oldest second still held, Long.MAX_VALUE when none is (a report never passes it) */
    void report(LongSupplier oldestHeld, long wallNow) {
        if (clock == null) {
            return;
        }
        UpstreamClock.Report report = clock.report(oldestHeld.getAsLong(), wallNow, lagging.getAsBoolean());
        if (report == null) {
            return;
        }
        for (Destination d : source.paces()) {
            out.progress(d, report.time(), report.idle());
        }
    }
}
