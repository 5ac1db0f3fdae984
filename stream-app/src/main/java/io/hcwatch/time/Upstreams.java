package io.hcwatch.time;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * How far each upstream (one input partition of one source, e.g. {@code health-3}) has got in
 * event time, as its ingest reports it, and the watermark that follows: the slowest upstream
 * still worth waiting for. An upstream is not waited for when it said it is idle (nothing read for
 * a while and nothing held), when it has not been heard from for {@code idleTimeout} of wall time
 * (its task is gone or stuck), or when it is more than {@code maxLag} of event time behind the
 * newest (presumed gone; what it sends later counts as late).
 *
 * <p>An upstream of a source delivered in batches (expected delay {@code d}, see
 * {@link UpstreamClock}) counts as complete up to the newest time any upstream has reported less
 * {@code d}, when it has not reported further itself: whatever of it is older has arrived by now if
 * it arrives within its normal delay. So it holds the watermark by at most its delay behind the
 * sources read as they happen, in event time, whatever the pace of the wall clock.
 */
public final class Upstreams {

    /** What one upstream last reported. */
    public static final class Upstream {
        public long time = Long.MIN_VALUE;
        public boolean idle;
        /** Wall-clock time and monitor tick of the last report; not kept across restarts (a restored upstream is heard at restore). */
        transient long heardAtWall;
        transient long heardAtTick;
        /** When it was first heard of (or restored), for an upstream that has yet to report a time. */
        transient long firstAtWall;
        transient long firstAtTick;
        /** Whether it was last found silent (see {@link #newlySilent}). */
        transient boolean silenced;

        public Upstream() {
        }

    }

    /**
     * An upstream that stopped being waited for because it went silent: steps from now on are judged
     * without it, and what it sends for them later counts as behind.
     *
     * @param unheardMillis wall time since it last reported, or since it was first expected when it never has
     */
    public record Silenced(String id, long unheardMillis, boolean neverReported) {
    }

    private final long silentTimeoutMillis;
    private final int silentTicks;
    private final long maxLagMillis;
    private final ToLongFunction<String> delayMillis;
    private long ticks;
    private final Map<String, Upstream> table = new LinkedHashMap<>();

    /**
     * @param silentTimeoutMillis wall time after which an upstream that stopped reporting is no longer
     *                          waited for; 0 means never (replay, where reports are exact)
     * @param maxLagMillis      event time behind the newest upstream beyond which one is not waited for
     */
    public Upstreams(long silentTimeoutMillis, long maxLagMillis) {
        this(silentTimeoutMillis, 0, maxLagMillis);
    }

    /**
     * @param silentTicks monitor ticks that must also pass without a report before an upstream counts
     *                  as silent: when the monitor's own thread was starved of CPU, it heard nothing
     *                  because it listened to nothing
     */
    public Upstreams(long silentTimeoutMillis, int silentTicks, long maxLagMillis) {
        this(silentTimeoutMillis, silentTicks, maxLagMillis, id -> 0);
    }

    /** @param delayMillis each upstream's expected delay (by upstream id; 0 for sources read as they happen) */
    public Upstreams(long silentTimeoutMillis, int silentTicks, long maxLagMillis, ToLongFunction<String> delayMillis) {
        this.silentTimeoutMillis = silentTimeoutMillis;
        this.silentTicks = silentTicks;
        this.maxLagMillis = maxLagMillis;
        this.delayMillis = delayMillis;
    }

    /** The source an upstream id names: {@code alb-health-3} is partition 3 of {@code alb-health}. */
    public static String sourceOf(String upstreamId) {
        int dash = upstreamId.lastIndexOf('-');
        return dash < 0 ? upstreamId : upstreamId.substring(0, dash);
    }

    /** An upstream reports: everything it carried up to {@code time} has been sent. Time never goes back. */
    public void report(String id, long time, boolean idle, long wallNow) {
        Upstream u = table.computeIfAbsent(id, k -> {
            Upstream created = new Upstream();
            created.firstAtWall = wallNow;
            created.firstAtTick = ticks;
            return created;
        });
        u.time = Math.max(u.time, time);
        u.idle = idle;
        u.heardAtWall = wallNow;
        u.heardAtTick = ticks;
    }

    /**
     * An upstream that exists (an input partition of a source that paces this monitor) but may not
     * have reported yet: it is waited for from the start, until it reports a time, says it is idle,
     * or the silent timeout passes; so a partition whose task starts late is not left behind.
     */
    public void expect(String id, long wallNow) {
        table.computeIfAbsent(id, k -> {
            Upstream u = new Upstream();
            u.heardAtWall = wallNow;
            u.heardAtTick = ticks;
            u.firstAtWall = wallNow;
            u.firstAtTick = ticks;
            return u;
        });
    }

    /** The monitor's wall clock ticked. */
    public void tick() {
        ticks++;
    }

    /** The newest time any upstream has reported; {@code Long.MIN_VALUE} when none has. */
    public long newest() {
        long newest = Long.MIN_VALUE;
        for (Upstream u : table.values()) {
            newest = Math.max(newest, u.time);
        }
        return newest;
    }

    /**
     * The event time up to which every upstream worth waiting for has reported; when none is
     * (all idle, silent or far behind), the newest report: nothing is left to wait for.
     */
    public long watermark(long wallNow) {
        long newest = newest();
        long slowest = Long.MAX_VALUE;
        for (Map.Entry<String, Upstream> e : table.entrySet()) {
            if (waitedFor(e.getKey(), e.getValue(), newest, wallNow)) {
                slowest = Math.min(slowest, effectiveTime(e.getKey(), e.getValue(), newest));
            }
        }
        return slowest == Long.MAX_VALUE ? newest : slowest;
    }

    /** Whether any upstream is still worth waiting for (one that is active, heard from and not far behind). */
    public boolean anyActive(long wallNow) {
        long newest = newest();
        for (Map.Entry<String, Upstream> e : table.entrySet()) {
            if (waitedFor(e.getKey(), e.getValue(), newest, wallNow)) {
                return true;
            }
        }
        return false;
    }

    private boolean waitedFor(String id, Upstream u, long newest, long wallNow) {
        if (u.idle || silent(id, u, wallNow)) {
            return false;
        }
        return u.time == Long.MIN_VALUE
                || effectiveTime(id, u, newest) >= newest - maxLagMillis - delayMillis.applyAsLong(id);
    }

    /**
     * Not heard from for the silent timeout; or reading, but with no telemetry yet, for that long
     * since it was first expected: waited for, but not for ever (a source that is all junk; a batched
     * source for its delay longer, as its first batch may be on its way).
     */
    private boolean silent(String id, Upstream u, long wallNow) {
        return !u.idle && (elapsed(u.heardAtWall, u.heardAtTick, wallNow, 0)
                || u.time == Long.MIN_VALUE && elapsed(u.firstAtWall, u.firstAtTick, wallNow, delayMillis.applyAsLong(id)));
    }

    /**
     * The upstreams that went silent since the last call, each once until it reports again: a task
     * gone for longer than the silent timeout, or one that starts later than that (a starved node), so
     * that the operator hears of the steps judged without it.
     */
    public List<Silenced> newlySilent(long wallNow) {
        List<Silenced> out = List.of();
        for (Map.Entry<String, Upstream> e : table.entrySet()) {
            Upstream u = e.getValue();
            boolean silent = silent(e.getKey(), u, wallNow);
            if (silent && !u.silenced) {
                boolean never = u.time == Long.MIN_VALUE;
                if (out.isEmpty()) {
                    out = new ArrayList<>();
                }
                out.add(new Silenced(e.getKey(), wallNow - (never ? u.firstAtWall : u.heardAtWall), never));
            }
            u.silenced = silent;
        }
        return out;
    }

    /** How far an upstream counts as complete: its report, or for a batched source at least its delay behind the newest. */
    private long effectiveTime(String id, Upstream u, long newest) {
        long delay = delayMillis.applyAsLong(id);
        if (delay == 0 || newest == Long.MIN_VALUE) {
            return u.time;
        }
        return Math.max(u.time, newest - delay);
    }

    /** Whether the silent timeout has passed since (wall, tick), in wall time and in this monitor's ticks; never in replay. */
    private boolean elapsed(long sinceWall, long sinceTick, long wallNow, long extraMillis) {
        return silentTimeoutMillis > 0 && wallNow - sinceWall >= silentTimeoutMillis + extraMillis && ticks - sinceTick >= silentTicks;
    }

    /** The reports, for the monitor's changelog. */
    public Map<String, Upstream> table() {
        return table;
    }

    /**
     * After a restart: the saved reports, each counted as heard just now and active. "Idle" spoke
     * for the stopped run's ingest; its successor may start reading seconds after another
     * partition's (a task still restoring, a starved thread), and an upstream still counted idle
     * would let the watermark run ahead of everything that partition has yet to send. So each is
     * waited for until its new ingest reports (progress, or idle once it finds its partition quiet)
     * or the silent timeout passes.
     */
    public void restore(Map<String, Upstream> saved, long wallNow) {
        table.clear();
        saved.forEach((id, u) -> {
            u.idle = false;
            u.heardAtWall = wallNow;
            u.heardAtTick = ticks;
            u.firstAtWall = wallNow;
            u.firstAtTick = ticks;
            u.silenced = false;
            table.put(id, u);
        });
    }
}
