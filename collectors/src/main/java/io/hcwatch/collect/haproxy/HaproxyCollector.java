package io.hcwatch.collect.haproxy;

import io.hcwatch.collect.CollectorMetrics;
import io.hcwatch.collect.Collector;
import io.hcwatch.collect.CollectorServices;
import io.hcwatch.collect.ErrorLog;
import io.hcwatch.collect.Outgoing;
import io.hcwatch.collect.Publisher;
import io.hcwatch.retry.ExponentialBackoff;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HAProxy collector: one poller per host on a small shared pool, one producer, and
 * {@code /metrics}, {@code /health}, {@code /ready}.
 */
public final class HaproxyCollector implements Collector {

    private static final Logger LOG = LoggerFactory.getLogger(HaproxyCollector.class);
    /** Thread names the benchmark sums CPU over. */
    public static final String THREAD_PREFIX = "hcwatch-collect-haproxy-";

    private final HaproxyConfig config;
    private final CollectorServices services = new CollectorServices();
    private final CollectorMetrics metrics = services.metrics();
    private final List<HostPoller> pollers = new ArrayList<>();
    private ScheduledExecutorService executor;
    private Publisher publisher;

    HaproxyCollector(HaproxyConfig config) {
        this.config = config;
    }

    /** A collector for a {@code collect haproxy --config} file, host names defaulting as the command's do. */
    public static HaproxyCollector fromFile(java.nio.file.Path config) {
        return new HaproxyCollector(HaproxyConfig.read(io.hcwatch.collect.ConfigReader.load(config), System::getenv, HostNames::local));
    }

    public synchronized void start() {
        publisher = services.startPublishing(config.publish(), "hcwatch-collect-haproxy", this::isReady);
        AtomicInteger threads = new AtomicInteger();
        executor = Executors.newScheduledThreadPool(Math.min(config.hosts().size(), 4), r -> {
            Thread t = new Thread(r, THREAD_PREFIX + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ErrorLog errors = new ErrorLog(LoggerFactory.getLogger(HostPoller.class), Duration.ofMinutes(1), System::nanoTime);
        HttpClient http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        for (HaproxyConfig.Host h : config.hosts()) {
            StatsSource source = h.socket() != null
                    ? new RuntimeApiSource(new RuntimeApiClient(h.socket(), config.timeout()))
                    : new StatsPageSource(http, h.statsUrl(), h.basicAuth(), config.timeout());
            ExponentialBackoff backoff = new ExponentialBackoff(config.backoffInitial(), config.backoffMax());
            HostPoller poller = new HostPoller(h.name(), source, publisher, this::topic, metrics, errors, backoff,
                    config.pollInterval(), Clock.systemUTC(), executor, h.cfgFile() == null ? null : new CfgFile(h.cfgFile()),
                    new HolderReading(config.holdersAtPercent(), config.holdersTop()));
            pollers.add(poller);
            LOG.info("polling HAProxy host {} via {} every {} ms{}", h.name(), source.describe(), config.pollInterval().toMillis(),
                    h.cfgFile() == null ? " (no config-file: check settings and log formats unknown)" : ", configuration " + h.cfgFile());
        }
        pollers.forEach(HostPoller::start);
        services.serveEndpoints(config.publish(), this::isReady);
    }

    private String topic(Outgoing.Topic t) {
        return switch (t) {
            case CONFIG -> config.configTopic();
            case HEALTH -> config.healthTopic();
            case STATS -> config.statsTopic();
        };
    }

    @Override
    public CollectorServices services() {
        return services;
    }

    @Override
    public synchronized void close() {
        pollers.forEach(HostPoller::stop);
        if (executor != null) {
            // a poll under way finishes (bounded by the socket timeout and max.block.ms) rather than being cut
            executor.shutdown();
            try {
                if (!executor.awaitTermination(config.timeout().toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                executor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        services.close();
    }
}
