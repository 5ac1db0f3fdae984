package io.hcwatch.collect;

import io.hcwatch.cluster.ClusterLogin;
import io.hcwatch.observability.EndpointServer;
import io.hcwatch.observability.ProcessMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every collector runs with besides its own polling: the metrics registry, one producer with
 * its client metrics, process metrics, and {@code /metrics}, {@code /health}, {@code /ready}.
 */
public final class CollectorServices implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CollectorServices.class);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CollectorMetrics metrics = new CollectorMetrics(registry);
    private Publisher publisher;
    private ProcessMetrics processMetrics;
    private EndpointServer endpoints;

    /**
     * Creates the producer and binds process and producer metrics.
     *
     * @throws ClusterLogin.ClusterLoginException when the cluster refuses the configured TLS or SASL
     *                                            login (checked before the producer is made)
     */
    public synchronized Publisher startPublishing(PublishConfig config, String clientId, BooleanSupplier ready) {
        ClusterLogin.verify(Publisher.producerSettings(config, clientId), clientId);
        processMetrics = ProcessMetrics.bind(registry, ProcessMetrics.DEFAULT_KAFKA_REFRESH, ready::getAsBoolean);
        publisher = Publisher.create(config, clientId, metrics);
        processMetrics.add(new KafkaClientMetrics(publisher.producer(), List.of(), processMetrics.scheduler(),
                processMetrics.kafkaRefresh()));
        return publisher;
    }

    /** Serves the endpoints unless {@code metrics.port=-1}. */
    public synchronized void serveEndpoints(PublishConfig config, BooleanSupplier ready) {
        if (config.metricsPort() != PublishConfig.METRICS_OFF) {
            endpoints = EndpointServer.start(config.metricsHost(), config.metricsPort(), registry, ready::getAsBoolean);
            LOG.info("serving /metrics, /health and /ready on {}:{}", config.metricsHost(), endpoints.port());
        }
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public CollectorMetrics metrics() {
        return metrics;
    }

    /** Whether any poll of a source other than {@code except} has succeeded ({@code hcwatch_collector_polls_total}). */
    public boolean anyPollSucceeded(String except) {
        return registry.find("hcwatch.collector.polls").counters().stream()
                .anyMatch(c -> c.count() > 0 && !c.getId().getTag("host").equals(except));
    }

    /** The endpoints' port (useful with metrics.port=0), or -1. */
    public int metricsPort() {
        return endpoints == null ? -1 : endpoints.port();
    }

    /** Stops serving, then sends what the producer holds (up to 10 s), then drops the metrics. */
    @Override
    public synchronized void close() {
        if (endpoints != null) {
            endpoints.close();
        }
        if (publisher != null) {
            publisher.close();
        }
        if (processMetrics != null) {
            processMetrics.close();
        }
        registry.close();
    }

    /**
     * Starts a collector and waits until the process is told to stop, then closes it: the body of
     * every {@code collect <collector>} command.
     */
    public static int runUntilStopped(Runnable start, AutoCloseable collector) throws InterruptedException {
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                collector.close();
            } catch (Exception e) {
                LOG.warn("closing the collector failed: {}", e.toString());
            }
            stopped.countDown();
        }, "hcwatch-collect-shutdown"));
        try {
            start.run();
        } catch (RuntimeException e) {
            // a collector that could not start (its cluster refused the login, say) exits now, not at the hook
            try {
                collector.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        stopped.await();
        return 0;
    }
}
