package io.hcwatch.topology;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lag of each source's records over this instance's ingest tasks ({@link ArrivalLag}, one per
 * input partition), shown as {@code hcwatch_source_record_lag_seconds{source}} (median over the last
 * window, worst partition). A source that arrives late by nature while {@code window.source-delay}
 * does not name it gets one WARN, naming the setting: its records would count as late and its
 * targets age out between batches.
 */
public final class SourceLags {

    private static final Logger LOG = LoggerFactory.getLogger(SourceLags.class);
    public static final String LAG = "hcwatch.source.record.lag";
    /** How far back arrivals count, and how long a partition is read before it is judged. */
    static final Duration WINDOW = Duration.ofMinutes(5);
    /** A median lag above it is late by nature: more than any shipper's buffering, less than ALB's 5-minute objects. */
    static final Duration THRESHOLD = Duration.ofMinutes(2);
    static final int MIN_RECORDS = 20;
    /** How often a partition's window is judged (wall time): a median costs a pass over its lags. */
    static final long JUDGE_EVERY_MS = 10_000;

    /** One partition's lag as last judged, read by the gauge from another thread. */
    public static final class Partition {
        private final Source source;
        private final boolean delayNamed;
        private final ArrivalLag lag = new ArrivalLag(WINDOW, THRESHOLD, MIN_RECORDS);
        private volatile double medianSeconds = Double.NaN;
        private long judgedAt = Long.MIN_VALUE;

        private Partition(Source source, boolean delayNamed) {
            this.source = source;
            this.delayNamed = delayNamed;
        }
    }

    private final Map<Source, Set<Partition>> running = new ConcurrentHashMap<>();
    private final Set<Source> warned = ConcurrentHashMap.newKeySet();
    private final Consumer<String> warn;

    public SourceLags(MeterRegistry registry) {
        this(registry, LOG::warn);
    }

    /** @param warn where the one warning per source goes (the log) */
    SourceLags(MeterRegistry registry, Consumer<String> warn) {
        this.warn = warn;
        for (Source s : Source.values()) {
            Set<Partition> partitions = running.computeIfAbsent(s, k -> ConcurrentHashMap.newKeySet());
            Gauge.builder(LAG, partitions, SourceLags::worstMedian).baseUnit("seconds")
                    .description("How long after their events the source's records reach Kafka: median over the last 5 minutes"
                            + " of arrivals, worst input partition (NaN before any)")
                    .tag("source", s.id()).register(registry);
        }
    }

    /** An ingest task of {@code source} started; {@code delayNamed}: window.source-delay gives the source a delay. */
    public Partition add(Source source, boolean delayNamed) {
        Partition p = new Partition(source, delayNamed);
        running.get(source).add(p);
        return p;
    }

    public void remove(Partition p) {
        running.get(p.source).remove(p);
    }

    /** A record of event time {@code eventTime} with Kafka timestamp {@code recordTimestamp} was read at {@code wallNow}. */
    public void read(Partition p, long eventTime, long recordTimestamp, long wallNow) {
        p.lag.arrived(eventTime, ArrivalLag.arrival(recordTimestamp, wallNow));
        if (p.judgedAt != Long.MIN_VALUE && wallNow - p.judgedAt < JUDGE_EVERY_MS) {
            return;
        }
        p.judgedAt = wallNow;
        ArrivalLag.Verdict v = p.lag.judge(wallNow);
        p.medianSeconds = v.medianMillis() < 0 ? Double.NaN : v.medianMillis() / 1000.0;
        if (v.batched() && !p.delayNamed && warned.add(p.source)) {
            warn.accept(String.format(Locale.ROOT, "%s records reach Kafka a median %ds after their events (up to %ds, %d"
                            + " records over the last %d minutes): the source arrives in batches. Set"
                            + " detect.window.source-delay=%s=%dm (its batch period plus delivery lag; ALB logs from S3: 10m),"
                            + " or its records count as late (hcwatch_records_late_total) and its targets age out between batches",
                    p.source.id(), v.medianMillis() / 1000, v.maxMillis() / 1000, v.records(), WINDOW.toMinutes(), p.source.id(),
                    Math.max(1, (v.maxMillis() + 59_999) / 60_000)));
        }
    }

    private static double worstMedian(Set<Partition> partitions) {
        double worst = Double.NaN;
        for (Partition p : partitions) {
            double m = p.medianSeconds;
            if (!Double.isNaN(m) && (Double.isNaN(worst) || m > worst)) {
                worst = m;
            }
        }
        return worst;
    }
}
