package io.hcwatch.observability;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both apps export besides their own counters: JVM and process metrics, {@code hcwatch_ready},
 * and a scheduler on which Micrometer's Kafka binders pick up client metrics that appear after
 * binding (per-partition {@code records-lag} shows up only once partitions are assigned).
 */
public final class ProcessMetrics implements AutoCloseable {

    public static final String READY = "hcwatch.ready";
    public static final Duration DEFAULT_KAFKA_REFRESH = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(ProcessMetrics.class);

    private final MeterRegistry registry;
    private final Duration kafkaRefresh;
    private final ScheduledExecutorService scheduler;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    private ProcessMetrics(MeterRegistry registry, Duration kafkaRefresh, ScheduledExecutorService scheduler) {
        this.registry = registry;
        this.kafkaRefresh = kafkaRefresh;
        this.scheduler = scheduler;
    }

    /**
     * Binds JVM and process metrics and {@code hcwatch_ready}.
     *
     * @param kafkaRefresh how often Kafka binders look for new client metrics
     * @param ready        what {@code /ready} answers
     */
    public static ProcessMetrics bind(MeterRegistry registry, Duration kafkaRefresh, BooleanSupplier ready) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hcwatch-kafka-metrics");
            t.setDaemon(true);
            return t;
        });
        ProcessMetrics m = new ProcessMetrics(registry, kafkaRefresh, scheduler);
        m.add(new JvmMemoryMetrics());
        m.add(new JvmGcMetrics());
        m.add(new JvmThreadMetrics());
        m.add(new ClassLoaderMetrics());
        m.add(new ProcessorMetrics());
        m.add(new UptimeMetrics());
        m.add(new FileDescriptorMetrics());
        // strong: the supplier is usually a method reference nothing else holds, and a collected one reads NaN
        Gauge.builder(READY, ready, r -> r.getAsBoolean() ? 1 : 0)
                .strongReference(true)
                .description("1 while /ready answers 200 (stream app: Kafka Streams RUNNING; sink: consumer polling)")
                .register(registry);
        return m;
    }

    /** Binds a binder and closes it (when it is closeable) with this object. */
    public <B extends MeterBinder> B add(B binder) {
        binder.bindTo(registry);
        if (binder instanceof AutoCloseable c) {
            closeables.add(c);
        }
        return binder;
    }

    /** For the Kafka binders' constructors; this object shuts it down. */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    public Duration kafkaRefresh() {
        return kafkaRefresh;
    }

    @Override
    public void close() {
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing a metrics binder failed", e);
            }
        }
        closeables.clear();
        scheduler.shutdownNow();
    }
}
