package io.hcwatch.sink;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.avro.v1.DeadLetter;
import io.hcwatch.cluster.ClusterLogin;
import io.hcwatch.cluster.RequiredTopics;
import io.hcwatch.observability.EndpointServer;
import io.hcwatch.observability.ProcessMetrics;
import io.hcwatch.retry.ExponentialBackoff;
import io.hcwatch.serde.RegistryOutage;
import io.hcwatch.retry.Sleeper;
import io.hcwatch.serde.SpecificAvroDeserializer;
import io.hcwatch.serde.SpecificAvroSerializer;
import io.hcwatch.sink.consume.AlertConsumer;
import io.hcwatch.sink.consume.AlertRecordHandler;
import io.hcwatch.sink.consume.DeadLetterWriter;
import io.hcwatch.sink.consume.PageDecoder;
import io.hcwatch.sink.notify.BlockedDeliveries;
import io.hcwatch.sink.notify.DeliveryMetrics;
import io.hcwatch.sink.notify.JsonLinesNotifier;
import io.hcwatch.sink.notify.Notifier;
import io.hcwatch.sink.notify.RetryingNotifier;
import io.hcwatch.sink.notify.pagerduty.PagerDutyNotifier;
import io.hcwatch.sink.notify.pagerduty.Route;
import io.hcwatch.sink.notify.pagerduty.Router;
import io.hcwatch.sink.notify.pagerduty.RoutingKey;
import io.hcwatch.sink.notify.pagerduty.RoutingKeyLoader;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alert sink as one object: reads the alerts topic and delivers each alert to PagerDuty and/or
 * stdout, waiting out their outages and dead-lettering what they refuse, with {@code /metrics},
 * {@code /health} and {@code /ready}. The constructor checks the whole configuration (and that
 * every routing key can be read) without connecting anywhere; {@link #start()} connects.
 */
public final class SinkApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SinkApp.class);
    public static final String DEAD_LETTER_SOURCE = "alerts";
    public static final String REGISTRY_UNAVAILABLE = "hcwatch.sink.registry.unavailable";
    public static final String REGISTRY_WAITING = "alerts wait, nothing is committed or dead-lettered";

    private final SinkConfig config;
    private final Router router;
    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory;
    private final PrintStream stdout;
    private final Clock clock;
    private final Sleeper sleeper;
    private final BlockedDeliveries blocked;
    private RegistryOutage registryOutage;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private Producer<byte[], byte[]> producer;
    private AlertConsumer consumer;
    private Thread consumerThread;
    private EndpointServer endpoints;
    private ProcessMetrics processMetrics;

    /** @throws SinkConfigException when a key is missing or wrong, or a routing key cannot be read */
    public SinkApp(Properties properties) {
        this(properties, System::getenv, KafkaConsumer::new, System.out);
    }

    /**
     * For embedders that render alerts themselves (the demo): the {@code stdout} sink writes its
     * JSON lines to {@code stdout} instead of {@link System#out}.
     *
     * @throws SinkConfigException when a key is missing or wrong, or a routing key cannot be read
     */
    public SinkApp(Properties properties, PrintStream stdout) {
        this(properties, System::getenv, KafkaConsumer::new, stdout);
    }

    /** For tests and embedders: where routing keys are looked up, how the consumer is made, where stdout goes. */
    SinkApp(Properties properties, UnaryOperator<String> environment,
            Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory, PrintStream stdout) {
        this(properties, environment, consumerFactory, stdout, Clock.systemUTC(), Sleeper.SYSTEM);
    }

    /** For tests that let an outage pass in simulated time: every wait of delivery goes through {@code sleeper}. */
    SinkApp(Properties properties, UnaryOperator<String> environment,
            Function<Map<String, Object>, Consumer<byte[], byte[]>> consumerFactory, PrintStream stdout,
            Clock clock, Sleeper sleeper) {
        this.config = SinkConfig.from(properties);
        config.ignoredKeyWarnings().forEach(LOG::warn);
        this.router = config.pagerDutyEnabled() ? router(config.pagerDuty(), new RoutingKeyLoader(environment)) : null;
        this.consumerFactory = consumerFactory;
        this.stdout = stdout;
        this.clock = clock;
        this.sleeper = sleeper;
        this.blocked = new BlockedDeliveries(clock);
    }

    /**
     * @throws ClusterLogin.ClusterLoginException when the cluster refuses the configured TLS or SASL
     *                                            login (checked before anything starts)
     * @throws io.hcwatch.cli.UsageException      when the alerts or dead-letter topic does not exist
     */
    public synchronized void start() {
        if (consumer != null) {
            throw new IllegalStateException("already started");
        }
        ClusterLogin.verifyEach(List.of(consumerConfig(), producerConfig()), "hcwatch-alert-sink");
        // the dead-letter topic too: a send to a missing topic blocks max.block.ms and fails, again and again
        RequiredTopics.verify(consumerConfig(), List.of(config.topic(), config.deadLetterTopic()), "hcwatch-alert-sink");
        processMetrics = ProcessMetrics.bind(registry, config.kafkaMetricsRefresh(), this::isReady);
        DeliveryMetrics metrics = new DeliveryMetrics(registry).initialize(config.sinks(), blocked);
        registryOutage = new RegistryOutage(clock, registry, REGISTRY_UNAVAILABLE, REGISTRY_WAITING);
        producer = new KafkaProducer<>(producerConfig());
        processMetrics.add(new KafkaClientMetrics(producer, List.of(), processMetrics.scheduler(), processMetrics.kafkaRefresh()));
        SpecificAvroSerializer<DeadLetter> deadLetterSerializer = new SpecificAvroSerializer<>();
        deadLetterSerializer.configure(config.serdeConfig(), false);
        PageDecoder decoder = pageDecoder(config);
        // source is a category like the telemetry DLQ's (alb, haproxy, ...), not the possibly renamed topic.
        DeadLetterWriter deadLetters = new DeadLetterWriter(producer, deadLetterSerializer, config.deadLetterTopic(),
                DEAD_LETTER_SOURCE, clock, Duration.ofMinutes(2));
        AlertRecordHandler handler = new AlertRecordHandler(decoder, notifiers(metrics), deadLetters, metrics,
                registryOutage, clock);
        Consumer<byte[], byte[]> kafkaConsumer = consumerFactory.apply(consumerConfig());
        // records-lag(-max) of the alerts topic comes from here: the sink's consumer lag for the alert rules
        processMetrics.add(new KafkaClientMetrics(kafkaConsumer, List.of(), processMetrics.scheduler(),
                processMetrics.kafkaRefresh()));
        consumer = new AlertConsumer(kafkaConsumer, config.topic(), handler,
                config.deliveryThreads(), config.shutdownGrace(), config.failureBackoff(), clock);
        consumerThread = new Thread(consumer, "hcwatch-sink-consumer");
        consumerThread.start();
        if (config.metricsPort() != SinkConfig.METRICS_OFF) {
            // A PagerDuty or Schema Registry outage is reported below "ready", not made a reason to be
            // unready: a restart brings neither back (alert-sink/README.md, "When PagerDuty is down").
            RegistryOutage outage = registryOutage;
            endpoints = EndpointServer.start(config.metricsHost(), config.metricsPort(), registry, this::isReady,
                    () -> Stream.concat(blocked.describe().stream(), outage.describe().stream()).toList());
            LOG.info("serving /metrics, /health and /ready on {}:{}", config.metricsHost(), endpoints.port());
        }
        LOG.info("alert sink started: {} -> {} (dead letters to {})", config.topic(), config.sinks(), config.deadLetterTopic());
    }

    private static PageDecoder pageDecoder(SinkConfig config) {
        return switch (config.deliver()) {
            case INCIDENTS -> {
                SpecificAvroDeserializer<Incident> incidents = new SpecificAvroDeserializer<>(Incident.class);
                incidents.configure(config.serdeConfig(), false);
                yield PageDecoder.incidents(incidents);
            }
            case ALERTS -> {
                SpecificAvroDeserializer<Alert> alerts = new SpecificAvroDeserializer<>(Alert.class);
                alerts.configure(config.serdeConfig(), false);
                yield PageDecoder.alerts(alerts);
            }
        };
    }

    /**
     * Returns once the alert consumer has stopped: empty when {@link #close()} stopped it, else the
     * error that ended it (a login the cluster refuses, an authorization it lost, a bug). The
     * process must then exit non-zero rather than stay up delivering nothing with {@code /health} 200.
     */
    public Optional<RuntimeException> awaitEnd() throws InterruptedException {
        AlertConsumer current;
        synchronized (this) {
            current = consumer;
        }
        if (current == null) {
            throw new IllegalStateException("not started");
        }
        current.awaitEnd();
        return current.failure();
    }

    /** Ready while the consumer is polling, also while a receiver's outage holds deliveries. */
    public boolean isReady() {
        AlertConsumer current = consumer;
        return current != null && current.isRunning();
    }

    /** The port serving the endpoints (useful with {@code metrics.port=0}); -1 when they are off or not started. */
    public int metricsPort() {
        return endpoints == null ? SinkConfig.METRICS_OFF : endpoints.port();
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    public SinkConfig config() {
        return config;
    }

    /** Stops consuming, lets in-flight deliveries finish within {@code shutdown.grace.ms}, commits what was delivered. */
    @Override
    public synchronized void close() {
        if (endpoints != null) {
            endpoints.close();
            endpoints = null;
        }
        if (consumer != null) {
            consumer.close();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(10));
            producer = null;
        }
        if (processMetrics != null) {
            processMetrics.close();
            processMetrics = null;
        }
        registry.close();
    }

    private List<Notifier> notifiers(DeliveryMetrics metrics) {
        ExponentialBackoff backoff = new ExponentialBackoff(config.retry().initialBackoff(), config.retry().maxBackoff());
        List<Notifier> notifiers = new ArrayList<>();
        if (config.pagerDutyEnabled()) {
            SinkConfig.PagerDuty pd = config.pagerDuty();
            PagerDutyNotifier pagerDuty = new PagerDutyNotifier(new PagerDutyNotifier.Settings(pd.endpoint(), pd.client(),
                    pd.requestTimeout(), pd.eventsPerMinute(), pd.burst()), router, clock, sleeper);
            notifiers.add(new RetryingNotifier(pagerDuty, backoff, metrics, blocked, sleeper));
        }
        if (config.stdoutEnabled()) {
            notifiers.add(new RetryingNotifier(new JsonLinesNotifier(stdout), backoff, metrics, blocked, sleeper));
        }
        return notifiers;
    }

    private static Router router(SinkConfig.PagerDuty pd, RoutingKeyLoader loader) {
        RoutingKey defaultKey = load(loader, "pagerduty.routing.key.env", pd.routingKeyEnv());
        List<Route> routes = new ArrayList<>();
        for (SinkConfig.RouteConfig route : pd.routes()) {
            RoutingKey key = load(loader, "pagerduty.route." + route.name() + ".routing.key.env", route.routingKeyEnv());
            routes.add(Route.of(route.name(), route.types(), route.severities(), route.targetGroupGlob(), key));
        }
        return new Router(routes, defaultKey);
    }

    private static RoutingKey load(RoutingKeyLoader loader, String configKey, String variable) {
        try {
            return loader.load(variable);
        } catch (IllegalArgumentException e) {
            throw new SinkConfigException(configKey, e.getMessage());
        }
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "hcwatch-alert-sink");
        props.putAll(config.consumerOverrides());
        // Offsets are committed by hand after delivery; auto-commit would commit alerts that never reached anyone.
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return props;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "hcwatch-alert-sink-dlq");
        props.putAll(config.producerOverrides());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return props;
    }
}
