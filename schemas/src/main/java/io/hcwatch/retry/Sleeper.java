package io.hcwatch.retry;

import java.time.Duration;

/** Waits between attempts; tests substitute one that only advances a clock. */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps on the calling thread, so an interrupt (shutdown, rebalance) ends the wait at once. */
    Sleeper SYSTEM = duration -> {
        if (!duration.isNegative() && !duration.isZero()) {
            Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
        }
    };

    void sleep(Duration duration) throws InterruptedException;
}
