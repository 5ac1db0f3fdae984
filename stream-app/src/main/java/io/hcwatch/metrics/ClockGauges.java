package io.hcwatch.metrics;

import io.hcwatch.time.MonitorClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How far behind each monitor's clock stands, over the tasks this instance runs: the wall time
 * since its watermark (how long a record just read may wait before it is judged) and the records
 * held above it. A watermark that stays behind points at an input partition that lags or stalls.
 */
public final class ClockGauges {

    public static final String WATERMARK_DELAY = "hcwatch.watermark.delay";
    public static final String HELD = "hcwatch.records.held";

    private final Map<String, Set<MonitorClock<?>>> clocks = new ConcurrentHashMap<>();
    private final LongSupplier wall;

    public ClockGauges(MeterRegistry registry, Iterable<String> monitors, LongSupplier wall) {
        this.wall = wall;
        for (String monitor : monitors) {
            Set<MonitorClock<?>> running = clocks.computeIfAbsent(monitor, m -> ConcurrentHashMap.newKeySet());
            Gauge.builder(WATERMARK_DELAY, running, this::delaySeconds).baseUnit("seconds")
                    .description("Wall time since the monitor's watermark (the slowest input partition it waits for), worst task")
                    .tag("monitor", monitor).register(registry);
            Gauge.builder(HELD, running, c -> c.stream().mapToInt(MonitorClock::heldCount).sum())
                    .description("Records held above the monitor's watermark, waiting for slower input partitions")
                    .tag("monitor", monitor).register(registry);
        }
    }

    /** A task's monitor started: its clock counts until {@link #remove}. */
    public void add(String monitor, MonitorClock<?> clock) {
        clocks.computeIfAbsent(monitor, m -> ConcurrentHashMap.newKeySet()).add(clock);
    }

    public void remove(String monitor, MonitorClock<?> clock) {
        Set<MonitorClock<?>> running = clocks.get(monitor);
        if (running != null) {
            running.remove(clock);
        }
    }

    private double delaySeconds(Set<MonitorClock<?>> running) {
        long now = wall.getAsLong();
        long worst = 0;
        for (MonitorClock<?> c : running) {
            if (c.watermark() != Long.MIN_VALUE) {
                worst = Math.max(worst, now - c.watermark());
            }
        }
        return worst / 1000.0;
    }
}
