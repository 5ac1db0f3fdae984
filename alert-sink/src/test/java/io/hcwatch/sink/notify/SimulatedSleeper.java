package io.hcwatch.sink.notify;

import io.hcwatch.retry.Sleeper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Sleeps in simulated time, for tests of outages that last minutes. A sleep moves a
 * {@link ManualClock} straight to its wake-up time (threads sleeping side by side share the time
 * that passes, as on a real clock) but never past the horizon the test sets: a sleep that would end
 * beyond it waits, in wall time, until the test moves the horizon on. So a test lets 30 minutes
 * pass at once, then finds the sink holding still at minute 30 and looks at it.
 */
public final class SimulatedSleeper implements Sleeper {

    /** How long, in wall time, a sleep waits for the horizon to move before the test counts as stuck. */
    private static final Duration WALL_LIMIT = Duration.ofMinutes(3);

    private final ManualClock clock;
    private final List<Instant> wakeTimes = new ArrayList<>();
    private Instant horizon;

    public SimulatedSleeper(ManualClock clock, Instant horizon) {
        this.clock = clock;
        this.horizon = horizon;
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (duration.isZero() || duration.isNegative()) {
            return;
        }
        Instant wake = clock.instant().plus(duration);
        long deadline = System.nanoTime() + WALL_LIMIT.toNanos();
        synchronized (this) {
            wakeTimes.add(wake);
            try {
                while (wake.isAfter(horizon)) {
                    clock.advanceTo(horizon);
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("simulated time stood at " + horizon + " for " + WALL_LIMIT
                                + " of wall time: the test never moved the horizon on");
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                clock.advanceTo(wake);
            } finally {
                wakeTimes.remove(wake);
            }
        }
    }

    /** Lets simulated time run up to {@code instant}, waking the sleeps that end by then. */
    public synchronized void moveHorizon(Instant instant) {
        horizon = instant;
        notifyAll();
    }

    /** Sleeps held at the horizon: the threads that will do nothing until the test moves it. */
    public synchronized int heldAtHorizon() {
        return (int) wakeTimes.stream().filter(wake -> wake.isAfter(horizon)).count();
    }
}
