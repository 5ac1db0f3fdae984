package io.hcwatch.sink.notify;

import io.hcwatch.retry.Sleeper;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sleeper that returns at once, advancing a {@link ManualClock} by the time it was asked to wait. */
public final class RecordingSleeper implements Sleeper {

    private final ManualClock clock;
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    public RecordingSleeper(ManualClock clock) {
        this.clock = clock;
    }

    @Override
    public void sleep(Duration duration) {
        if (!duration.isZero()) {
            sleeps.add(duration);
            clock.advance(duration);
        }
    }

    public List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
